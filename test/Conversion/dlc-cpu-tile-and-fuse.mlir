// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-tile-and-fuse{threads=2}))" | FileCheck %s
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-tile-and-fuse))" | FileCheck %s --check-prefix=ONE
// RUN: dlc-opt %s -split-input-file --pass-pipeline="builtin.module(func.func(dlc-cpu-tile-and-fuse{threads=2}))" --dlc-pass-stats 2>&1 >/dev/null | FileCheck %s --check-prefix=STATS

// Over the cases: 5 loop nests; 2 + 1 + 2 + 3 ops fused (the product and
// its bias; the shared zero fill copied into the second product; the first
// product and its fill into the clip; the depthwise convolution, its bias
// and its padding into the clip); the untouched case; a product whose
// columns no tile divides; one whose rows no register tile divides; one
// whose rows stay whole for its blocked columns; one whose large B has its
// columns split for the threads; two poolings of padded
// channels-last inputs (each with its fill and its padding); a depthwise
// convolution in bands of rows (its fill fused, its padding one band per
// tile); a row sum that keeps its reduced dimension (its fill fused).
// STATS: dlc-cpu-tile-and-fuse: fused 14, fused-pads 3, padded-bands 1, tiled 12{{$}}

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>

// A matrix product with a bias broadcast as its initial value and a ReLU
// after it: one loop over cache tiles (48 rows = 8 register tiles of 6, 256
// columns) computes the bias, the product and the ReLU of each tile.
// CHECK-LABEL: func @dense_bias_relu
// CHECK-NOT: linalg.generic
// CHECK: scf.forall (%[[I:.*]], %[[J:.*]]) = (0, 0) to (96, 512) step (48, 256)
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<256xf32>) outs(%{{.*}} : tensor<48x256xf32>)
// CHECK: linalg.generic {{.*}}["parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}}, %{{.*}} : tensor<48x64xf32>, tensor<64x256xf32>) outs(%{{.*}} : tensor<48x256xf32>)
// CHECK: arith.maximumf
// CHECK: tensor.parallel_insert_slice
// CHECK-NOT: linalg.generic
// CHECK: return
// With one thread the tiles are a sequential loop nest.
// ONE-LABEL: func @dense_bias_relu
// ONE-NOT: scf.forall
// ONE: scf.for
// ONE: scf.for
// ONE: arith.maximumf
func.func @dense_bias_relu(%x: tensor<96x64xf32>, %w: tensor<64x512xf32>, %bias: tensor<512xf32>) -> tensor<96x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<96x512xf32>
  %init = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<512xf32>) outs(%e : tensor<96x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<96x512xf32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<96x64xf32>, tensor<64x512xf32>) outs(%init : tensor<96x512xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<96x512xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%p : tensor<96x512xf32>) outs(%e : tensor<96x512xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  } -> tensor<96x512xf32>
  return %y : tensor<96x512xf32>
}

// -----

#a = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#b = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#c = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>

// A 1x1 convolution's product [n, o, h*w] and its clip at [n, o, h, w]: the
// clip takes the product's shape, so the two share their tiles (all 16 rows;
// the 64 columns, one cache tile, halved for two threads), and the result is
// expanded after the loop. The zero initial value that CSE shared between
// the two products is copied for each, and computed per tile.
// CHECK-LABEL: func @conv_clip
// CHECK-NOT: linalg.fill
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (1, 16, 64) step (1, 16, 32)
// CHECK: linalg.fill {{.*}} -> tensor<1x16x32xf32>
// CHECK: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0) to (1, 16, 64) step (1, 16, 32)
// CHECK: linalg.fill {{.*}} -> tensor<1x16x32xf32>
// CHECK: linalg.generic {{.*}}outs(%{{.*}} : tensor<1x16x32xf32>)
// CHECK: arith.minimumf
// CHECK: tensor.expand_shape %{{.*}} {{\[}}[0], [1], [2, 3]] output_shape [1, 16, 8, 8]
// CHECK: return
func.func @conv_clip(%x: tensor<1x8x64xf32>, %w: tensor<16x8xf32>, %x2: tensor<1x8x64xf32>) -> (tensor<1x16x8x8xf32>, tensor<1x16x64xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %e = tensor.empty() : tensor<1x16x64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x64xf32>) -> tensor<1x16x64xf32>
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : tensor<16x8xf32>, tensor<1x8x64xf32>) outs(%init : tensor<1x16x64xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x16x64xf32>
  %p2 = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x2 : tensor<16x8xf32>, tensor<1x8x64xf32>) outs(%init : tensor<1x16x64xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<1x16x64xf32>
  %img = tensor.expand_shape %p [[0], [1], [2, 3]] output_shape [1, 16, 8, 8] : tensor<1x16x64xf32> into tensor<1x16x8x8xf32>
  %e4 = tensor.empty() : tensor<1x16x8x8xf32>
  %y = linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%img : tensor<1x16x8x8xf32>) outs(%e4 : tensor<1x16x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x16x8x8xf32>
  return %y, %p2 : tensor<1x16x8x8xf32>, tensor<1x16x64xf32>
}

// -----

// Not tiled: a dynamic shape, and a product that is a single tile.
// CHECK-LABEL: func @untouched
// CHECK-NOT: scf.forall
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @untouched(%x: tensor<?x64xf32>, %w: tensor<64x16xf32>, %init: tensor<?x16xf32>,
                     %x2: tensor<6x8xf32>, %w2: tensor<8x16xf32>, %init2: tensor<6x16xf32>) -> (tensor<?x16xf32>, tensor<6x16xf32>) {
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<?x64xf32>, tensor<64x16xf32>) outs(%init : tensor<?x16xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<?x16xf32>
  %q = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x2, %w2 : tensor<6x8xf32>, tensor<8x16xf32>) outs(%init2 : tensor<6x16xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<6x16xf32>
  return %p, %q : tensor<?x16xf32>, tensor<6x16xf32>
}

// -----

// A depthwise convolution of a padded input: tiles are whole planes (here
// two channels each), and each tile pads its own planes inside the loop; the
// padding of the whole tensor is gone. A single plane is not tiled at all,
// and keeps its padding outside.
// CHECK-LABEL: func @depthwise_padded
// CHECK-NOT: tensor.pad
// CHECK: scf.forall (%{{.*}}, %[[C:.*]]) = (0, 0) to (1, 4) step (1, 2)
// CHECK-NOT: scf.if
// CHECK: tensor.extract_slice %arg0[%{{.*}}, %[[C]], 0, 0] [1, 2, 8, 8]
// CHECK: tensor.pad {{.*}} low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x10x10xf32>, tensor<2x3x3xf32>)
// CHECK: arith.minimumf
// CHECK: tensor.parallel_insert_slice
// CHECK: tensor.pad
// CHECK-NOT: scf.forall
// CHECK: linalg.depthwise_conv_2d_nchw_chw
func.func @depthwise_padded(%x: tensor<1x4x8x8xf32>, %w: tensor<4x3x3xf32>, %bias: tensor<4xf32>,
                            %x1: tensor<1x1x8x8xf32>, %w1: tensor<1x3x3xf32>) -> (tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %pad = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
  %e = tensor.empty() : tensor<1x4x8x8xf32>
  %init = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (c)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                          iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%bias : tensor<4xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x4x8x8xf32>
  %c = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pad, %w : tensor<1x4x10x10xf32>, tensor<4x3x3xf32>) outs(%init : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>, affine_map<(n, c, h, w) -> (n, c, h, w)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : tensor<1x4x8x8xf32>) outs(%e : tensor<1x4x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  } -> tensor<1x4x8x8xf32>
  %pad1 = tensor.pad %x1 low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x1x8x8xf32> to tensor<1x1x10x10xf32>
  %e1 = tensor.empty() : tensor<1x1x8x8xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  %c1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%pad1, %w1 : tensor<1x1x10x10xf32>, tensor<1x3x3xf32>) outs(%f1 : tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32>
  return %y, %c1 : tensor<1x4x8x8xf32>, tensor<1x1x8x8xf32>
}

// -----

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>

// No tile of 16 columns divides 600: the rows are not cut into cache tiles
// of 48 or 36 (each would read all of B again) but only halved for the two
// threads (dlc-cpu-vectorize-contractions blocks the columns inside).
// CHECK-LABEL: func @columns_undivided
// CHECK: scf.forall ({{.*}}) = (0, 0) to (144, 600) step (72, 600)
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<72x64xf32>, tensor<64x600xf32>) outs(%{{.*}} : tensor<72x600xf32>)
func.func @columns_undivided(%x: tensor<144x64xf32>, %w: tensor<64x600xf32>, %init: tensor<144x600xf32>) -> tensor<144x600xf32> {
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<144x64xf32>, tensor<64x600xf32>) outs(%init : tensor<144x600xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<144x600xf32>
  return %p : tensor<144x600xf32>
}

// -----

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>

// A channels-last 1x1 convolution's product on a 28 x 28 map: no multiple
// of 6 rows divides 784, and the whole rows by 256 columns would make each
// tile's buffer 784 KiB, more than a thread's stack keeps (512 KiB), so
// taken from the heap at every tile of every run: tiles of 28 rows (4
// register tiles and a partial one).
// CHECK-LABEL: func @positions_undivided
// CHECK: scf.forall ({{.*}}) = (0, 0) to (784, 512) step (28, 256)
// CHECK: outs(%{{.*}} : tensor<28x256xf32>)
func.func @positions_undivided(%x: tensor<784x64xf32>, %w: tensor<64x512xf32>, %init: tensor<784x512xf32>) -> tensor<784x512xf32> {
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<784x64xf32>, tensor<64x512xf32>) outs(%init : tensor<784x512xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<784x512xf32>
  return %p : tensor<784x512xf32>
}

// -----

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>

// No column tile divides 1444 (an NCHW convolution on a 38 x 38 map): the
// rows stay whole on purpose, though a tile (256 x 722) is more than the
// stack keeps: the columns are blocked inside, read once.
// CHECK-LABEL: func @rows_whole_for_blocked_columns
// CHECK: scf.forall ({{.*}}) = (0, 0) to (256, 1444) step (256, 722)
func.func @rows_whole_for_blocked_columns(%x: tensor<256x64xf32>, %w: tensor<64x1444xf32>, %init: tensor<256x1444xf32>) -> tensor<256x1444xf32> {
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<256x64xf32>, tensor<64x1444xf32>) outs(%init : tensor<256x1444xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<256x1444xf32>
  return %p : tensor<256x1444xf32>
}

// -----

#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>

// A product whose B (768 x 768 floats, 2.25 MiB, as BERT-base's) is too
// large to stay in a core's L2 cache: cache tiles of up to 16 register
// tiles of rows (here all 96), and the two threads split the columns (4
// tiles of 192) rather than the rows, so that each reads its part of B
// once, for all the rows. @dense_bias_relu's small B keeps tiles of 48 rows.
// CHECK-LABEL: func @large_b
// CHECK: scf.forall ({{.*}}) = (0, 0) to (96, 768) step (96, 192)
// CHECK: ins(%{{.*}}, %{{.*}} : tensor<96x768xf32>, tensor<768x192xf32>) outs(%{{.*}} : tensor<96x192xf32>)
func.func @large_b(%x: tensor<96x768xf32>, %w: tensor<768x768xf32>, %init: tensor<96x768xf32>) -> tensor<96x768xf32> {
  %p = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<96x768xf32>, tensor<768x768xf32>) outs(%init : tensor<96x768xf32>) {
  ^bb0(%l: f32, %r: f32, %acc: f32):
    %m = arith.mulf %l, %r : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<96x768xf32>
  return %p : tensor<96x768xf32>
}

// -----

// Channels-last max pooling of padded inputs: tiles are whole padded planes
// (the 65 x 65 that the windows read) of a vector's worth of channels (8 at
// 256 bits; SSD's stem, 151 x 151 x 8 floats, 730 KB). Those of a 200 x 200
// input would make that 201 x 201 x 8, 1.3 MB, more than a thread's stack
// keeps for a plane (1 MiB), so taken from the heap at every tile of every
// run: 4 channels each (646 KB).
// CHECK-LABEL: func @pooling_planes
// CHECK: scf.forall ({{.*}}) = (0, 0) to (1, 64) step (1, 8)
// CHECK: linalg.pooling_nhwc_max {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x65x65x8xf32>, tensor<3x3xf32>)
// CHECK: scf.forall ({{.*}}) = (0, 0) to (1, 64) step (1, 4)
// CHECK: linalg.pooling_nhwc_max {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x201x201x4xf32>, tensor<3x3xf32>)
func.func @pooling_planes(%x: tensor<1x64x64x64xf32>, %big: tensor<1x200x200x64xf32>) -> (tensor<1x32x32x64xf32>, tensor<1x100x100x64xf32>) {
  %low = arith.constant 0xFF800000 : f32
  %window = tensor.empty() : tensor<3x3xf32>
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %low : f32
  } : tensor<1x64x64x64xf32> to tensor<1x66x66x64xf32>
  %e = tensor.empty() : tensor<1x32x32x64xf32>
  %f = linalg.fill ins(%low : f32) outs(%e : tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
  %y = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%p, %window : tensor<1x66x66x64xf32>, tensor<3x3xf32>) outs(%f : tensor<1x32x32x64xf32>) -> tensor<1x32x32x64xf32>
  %pb = tensor.pad %big low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %low : f32
  } : tensor<1x200x200x64xf32> to tensor<1x202x202x64xf32>
  %eb = tensor.empty() : tensor<1x100x100x64xf32>
  %fb = linalg.fill ins(%low : f32) outs(%eb : tensor<1x100x100x64xf32>) -> tensor<1x100x100x64xf32>
  %yb = linalg.pooling_nhwc_max {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
      ins(%pb, %window : tensor<1x202x202x64xf32>, tensor<3x3xf32>) outs(%fb : tensor<1x100x100x64xf32>) -> tensor<1x100x100x64xf32>
  return %y, %yb : tensor<1x32x32x64xf32>, tensor<1x100x100x64xf32>
}

// -----

// A channels-last depthwise convolution at stride 1 whose padded plane of
// a vector's worth of channels (66 x 66 x 8, 139 KB) is more than a band
// keeps (128 KiB): tiles of bands of 16 rows with all 16 channels, each
// filling an 18 x 66 band with zeros and copying in the rows that exist
// (the first band's top row and the last one's bottom row are padding).
// CHECK-LABEL: func @depthwise_bands
// CHECK-NOT: tensor.pad
// CHECK: scf.forall (%{{.*}}, %[[R:.*]], %{{.*}}) = (0, 0, 0) to (1, 64, 16) step (1, 16, 16)
// CHECK: %[[FIRST:.*]] = affine.max #{{.*}}(%[[R]])
// CHECK: %[[END:.*]] = affine.min #{{.*}}(%[[R]])
// CHECK: %[[ROWS:.*]] = affine.max #{{.*}}(%[[END]], %[[FIRST]])
// CHECK: %[[AT:.*]] = affine.apply #{{.*}}(%[[FIRST]], %[[R]])
// CHECK: %[[ZEROS:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<1x18x66x16xf32>)
// CHECK: %[[PART:.*]] = tensor.extract_slice %arg0[%{{.*}}, %[[FIRST]], 0, %{{.*}}] [1, %[[ROWS]], 64, 16]
// CHECK: %[[BAND:.*]] = tensor.insert_slice %[[PART]] into %[[ZEROS]][0, %[[AT]], 1, 0] [1, %[[ROWS]], 64, 16]
// CHECK: linalg.depthwise_conv_2d_nhwc_hwc {{.*}} ins(%[[BAND]], %{{.*}} : tensor<1x18x66x16xf32>, tensor<3x3x16xf32>) outs(%{{.*}} : tensor<1x16x64x16xf32>)
// CHECK-NOT: tensor.pad
func.func @depthwise_bands(%x: tensor<1x64x64x16xf32>, %w: tensor<3x3x16xf32>) -> tensor<1x64x64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %p = tensor.pad %x low[0, 1, 1, 0] high[0, 1, 1, 0] {
  ^bb0(%i: index, %j: index, %k: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x64x64x16xf32> to tensor<1x66x66x16xf32>
  %e = tensor.empty() : tensor<1x64x64x16xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x64x64x16xf32>) -> tensor<1x64x64x16xf32>
  %y = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%p, %w : tensor<1x66x66x16xf32>, tensor<3x3x16xf32>) outs(%f : tensor<1x64x64x16xf32>) -> tensor<1x64x64x16xf32>
  return %y : tensor<1x64x64x16xf32>
}

// -----

// A row sum that keeps its reduced dimension (a layer norm's mean, 1x128x1:
// the output indexed by 0 there) is tiled by rows, its fill fused, so the
// threads share the rows; it is its own root: the division after it, which
// cannot take it by a tile of its result, stays outside.
// CHECK-LABEL: func @kept_dim_rows
// CHECK: scf.forall ({{.*}}) = (0, 0) to (1, 128) step (1, 64)
// CHECK: linalg.fill {{.*}} -> tensor<1x64x1xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]{{.*}} ins(%{{.*}} : tensor<1x64x768xf32>) outs(%{{.*}} : tensor<1x64x1xf32>)
// CHECK: scf.forall.in_parallel
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x128x1xf32>)
// ONE-LABEL: func @kept_dim_rows
// ONE-NOT: scf.for
func.func @kept_dim_rows(%x: tensor<1x128x768xf32>) -> tensor<1x128x1xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 768.0 : f32
  %e = tensor.empty() : tensor<1x128x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x128x1xf32>) -> tensor<1x128x1xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<1x128x768xf32>) outs(%f : tensor<1x128x1xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %a = arith.addf %acc, %in : f32
    linalg.yield %a : f32
  } -> tensor<1x128x1xf32>
  %m = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                       iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%s : tensor<1x128x1xf32>) outs(%e : tensor<1x128x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    linalg.yield %d : f32
  } -> tensor<1x128x1xf32>
  return %m : tensor<1x128x1xf32>
}
