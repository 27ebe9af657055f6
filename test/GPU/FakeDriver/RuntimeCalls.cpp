//===- RuntimeCalls.cpp - dlc's CUDA runtime entry points, called in order ===//
//
// dlc-cuda-runtime-calls CALL...: calls each of dlc's CUDA graph entry
// points named (graph_begin, graph_end, graph_launch) in turn, so that tests
// can check the runtime's diagnostics for calls made out of order, with the
// fake driver beside it.
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstring>

extern "C" {
void dlc_cuda_graph_begin();
void dlc_cuda_graph_end();
void dlc_cuda_graph_launch();
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "graph_begin"))
      dlc_cuda_graph_begin();
    else if (!std::strcmp(argv[i], "graph_end"))
      dlc_cuda_graph_end();
    else if (!std::strcmp(argv[i], "graph_launch"))
      dlc_cuda_graph_launch();
    else {
      std::fprintf(stderr, "dlc-cuda-runtime-calls: unknown call '%s'\n", argv[i]);
      return 2;
    }
  }
  return 0;
}
