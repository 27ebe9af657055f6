//===- Version.h - the version of dlc this is -------------------*- C++ -*-===//
#ifndef DLC_SUPPORT_VERSION_H
#define DLC_SUPPORT_VERSION_H

namespace dlc {

/// `git describe --always --dirty --tags` of the source tree when this
/// library was built (the project version without git): the dlc version of
/// reports, tuning records and the compile cache's key.
const char *gitVersion();

} // namespace dlc

#endif // DLC_SUPPORT_VERSION_H
