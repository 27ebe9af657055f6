//===- Passes.td - dlc conversion passes -------------------*- tablegen -*-===//
#ifndef DLC_CONVERSION_PASSES_TD
#define DLC_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGraphToLinalgPass
    : Pass<"convert-graph-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Lower graph ops to linalg, tensor, arith and math on tensors";
  let description = [{
    Every graph op becomes named linalg ops where they exist (convolutions in
    NCHW/OIHW and NHWC/HWIO, depthwise and grouped; pooling; transpose) and
    `linalg.generic` elsewhere (elementwise math with numpy broadcasting,
    contractions for dense/matmul/batch_matmul, reductions, normalizations,
    gathers), with `tensor` ops for shape changes. `graph.fused` and
    `graph.composite` bodies are inlined first. `graph.nms`, control flow
    rather than a loop nest, becomes scf loops over buffers between
    `bufferization.to_buffer` and `bufferization.to_tensor`. An op that has
    no lowering (e.g. a `graph.dynamic_reshape` whose shape is not a
    constant) is reported and the pass fails.
  }];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::math::MathDialect", "mlir::tensor::TensorDialect",
    "mlir::scf::SCFDialect", "mlir::memref::MemRefDialect",
    "mlir::bufferization::BufferizationDialect",
  ];
}

def OutlineKernelsPass : Pass<"dlc-outline-kernels", "mlir::ModuleOp"> {
  let summary = "One private function per kernel: each fused region, and each op outside every region";
  let description = [{
    The graph decides fusion and the backend obeys: every `graph.fused` or
    `graph.composite` region becomes a private function (a kernel, marked
    `dlc.kernel` with the region's pattern or the op's name, and a
    composite's also `dlc.composite` with its name, which a target's
    kernel passes read) called from where it was, and so does every compute
    op outside all regions. The
    lowering works function by function, so a backend fuses within a kernel
    (tile-and-fuse, elementwise fusion) and never across kernels: with
    FuseOps at fusion level 0 every op is its own kernel.

    Views (`reshape`, `expand_dims`, `squeeze`) are not kernels: alone they
    stay in the caller, and at the end of a region they move out of it, so a
    kernel never returns a view of its own buffer (which would be copied). A
    region that computes nothing but views is inlined. Splat constants and
    constants of at most `max-constant-elements` elements are copied into
    the kernels that read them; others (weights, biases) are passed, and so
    are splats that a convolution or matrix product multiplies (its input or
    weight, through views or not), which copied in would be folded into the
    product's body and leave a loop nest no backend tiles as a product.

    Kernels with the same structural fingerprint (`lib/Analysis`: the same
    ops on the same types and attributes, whatever buffers they read) are
    one kernel: every call goes to the first, so each distinct kernel is
    lowered and compiled once (ResNet-50's repeated bottleneck blocks,
    BERT's identical layers).

    Counters (`--dlc-pass-stats`): `kernels`, kernels outlined; `distinct`,
    functions left after deduplication; `views`, view-only regions inlined.
  }];
  let options = [
    Option<"maxConstantElements", "max-constant-elements", "int64_t", /*default=*/"16",
           "Largest non-splat constant copied into a kernel rather than passed">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect"];
}

def TileAttentionPass : Pass<"dlc-tile-attention", "mlir::func::FuncOp"> {
  let summary = "Compute an attention kernel block by block of query rows, scores to context in cache";
  let description = [{
    A kernel outlined from a `graph.composite "attention"` (MergeComposite's
    pattern: scores `batch_matmul(Q, K)`, optional reshapes, scale and
    additive mask, a softmax over the keys, context `batch_matmul(P, V)`)
    becomes one `scf.forall` over heads and blocks of query rows. Each block
    computes its scores, their softmax and its rows of the context while the
    scores (at most `block-bytes` a block) are in cache, or in the GPU's
    shared memory, instead of every head's whole score matrix going through
    memory between five kernels. K, when the scores multiply by it
    transposed, is transposed once before the loop. Where the chain ends
    by merging the context's heads into its rows (reshape `[B*H, S, W]` to
    `[B, H, S, W]`, transpose `(0, 2, 1, 3)`, and a reshape or not: BERT's,
    which MergeComposite's longer patterns take in), the loop's result is
    `[B, S, H, W]` and each block is written at its sample's and head's
    place, so no kernel permutes the context afterwards; other reshapes and
    transposes after the context stay after the loop. A mask per sample
    (`[batch, 1, 1, keys]`, a batch of padded sequences) gives each block
    its sample's row. The block's ops stay graph ops on slices, lowered by
    graph-to-linalg. The CPU pipeline runs the loop on its threads (64 KiB
    of scores a block, rows a multiple of the register tile's); the CUDA
    pipeline runs it as one kernel, a thread block per iteration
    (dlc-gpu-map-to-threads; 8 KiB, the block's buffers in shared memory).
    Chains of another shape (a scale or mask that varies along heads or
    rows, other ops between the products, dynamic shapes) and chains whose
    one row of scores is larger than `block-bytes` are left as they are.
    Counters (`--dlc-pass-stats`): `tiled`, `left`.
  }];
  let options = [
    Option<"rowMultiple", "row-multiple", "int64_t", /*default=*/"8",
           "Rows of a block a multiple of this where one divides the rows and fits "
           "(the CPU's register tile rows: 8 with AVX-512, 6 with AVX2)">,
    Option<"blockBytes", "block-bytes", "int64_t", /*default=*/"65536",
           "Most bytes of a block's f32 scores (a chain whose one row of scores "
           "takes more is left)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect", "dlc::graph::GraphDialect"];
}

def TileWinogradPass : Pass<"dlc-tile-winograd", "mlir::func::FuncOp"> {
  let summary = "Compute a Winograd convolution band by band of tile rows, every stage in cache";
  let description = [{
    A `graph.conv2d_winograd` is four stages over every tile of its input
    (the tiles' copy, the input transform, the product with the transformed
    weights, the output transform), each a parallel loop over the whole
    input split along its own dimension: with several threads each stage
    reads what the other threads wrote in the stage before. This pass makes
    it one `scf.forall` over samples and bands of tile rows, whose body is
    the convolution of its band (a slice of the input, padded once before
    the loop) and the elementwise ops after it that read nothing but
    per-channel or scalar operands (a folded batch norm's scale and shift,
    an activation): each band goes through every stage while it is in the
    core's cache. A band takes as many tile rows as divide the rows and
    keep each stage's transformed tiles within `band-bytes`, and there are
    at least `threads` bands where the rows allow (two at least). Output
    rows and columns past the output's edge (a size that is no multiple of
    the tile) are cut after the loop.
    Convolutions whose transformed weights take more than `weight-bytes`,
    which every band reads whole, and those that would make fewer than two
    bands, are left as they are. The body stays graph ops on slices,
    lowered by graph-to-linalg. The CPU pipeline runs it with two threads
    or more, `threads` its thread count. Counters (`--dlc-pass-stats`):
    `tiled`, `left`.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "Fewest bands (the threads that run them)">,
    Option<"bandBytes", "band-bytes", "int64_t", /*default=*/"131072",
           "Most bytes of a band's transformed tiles in one stage (at least one tile row)">,
    Option<"weightBytes", "weight-bytes", "int64_t", /*default=*/"4194304",
           "Most bytes of transformed weights (every band reads them whole)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect",
                           "mlir::tensor::TensorDialect", "dlc::graph::GraphDialect"];
}

def CPUFuseElementwisePass
    : Pass<"dlc-cpu-fuse-elementwise", "mlir::func::FuncOp"> {
  let summary = "Fuse elementwise producers into elementwise consumers";
  let description = [{
    linalg's elementwise fusion, restricted to consumers without reduction
    loops: fusing a producer (e.g. GELU's erf) into a contraction would
    recompute it for every step of the reduction. Chains of elementwise and
    broadcast ops become one loop nest.

    A producer that computes math (exp, erf, tanh, ...) and has a user the
    fusion cannot take (a reduction, a result) stays materialized for that
    user, so its elementwise consumers read it instead of computing it
    again: a softmax's exponentials are summed and then divided by the sum,
    computed once. `recompute-shared-math` fuses it anyway (the GPU, whose
    reductions compute their producers themselves). Counters
    (`--dlc-pass-stats`): kept (producers read instead of recomputed).
  }];
  let options = [
    Option<"recomputeSharedMath", "recompute-shared-math", "bool", /*default=*/"false",
           "fuse math producers into elementwise consumers even where another "
           "user keeps them materialized">,
  ];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def CPUApproximateMathPass
    : Pass<"dlc-cpu-approximate-math", "mlir::func::FuncOp"> {
  let summary = "Replace exp, erf and tanh by inline polynomial approximations";
  let description = [{
    Without a vector math library, `math.exp`, `math.erf` and `math.tanh`
    lower to one libm call per element, which keeps LLVM from vectorizing
    the loops of softmax, sigmoid and GELU. This pass rewrites them with
    MLIR's polynomial approximations in f32: plain arithmetic that
    vectorizes, accurate to a few ulp (checked against the reference
    interpreter by the CPU tests). f16 and bf16 ones are computed in f32
    and rounded back, as LLVM computes them through libm otherwise (GELU
    in a mixed-precision graph with FastMath). f64 and other functions are
    left alone. Counters (`--dlc-pass-stats`): `approximated`.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::math::MathDialect",
                           "mlir::vector::VectorDialect"];
}

def CPUWidenNarrowElementwisePass
    : Pass<"dlc-cpu-widen-narrow-elementwise", "mlir::func::FuncOp"> {
  let summary = "Compute f16 and bf16 elementwise ops in f32, rounding once where stored";
  let description = [{
    x86 CPUs have no bf16 arithmetic (and most no f16): LLVM computes each
    f16 or bf16 op in f32 and rounds its result back, so an elementwise
    chain (a product's bias, clip and residual add in a mixed-precision
    graph) rounds after every op, and its loops vectorize 4 wide at best
    (MobileNetV2's epilogues in bf16 took 3x their f32 time). This pass
    rewrites the body of every elementwise `linalg.generic` (all loops
    parallel) that computes on f16 or bf16 values: the inputs are widened
    once, the ops compute in f32, and each result is rounded once to its
    type when yielded; a rounding followed by a widening inside the body (a
    product's f32 result rounded before its bias is added) goes. So the
    values stored are those of the chain computed in f32 and rounded once,
    as TVM's bf16 legalization computes them: they can differ from the
    reference interpreter's (which rounds after each op) by about an ulp of
    the type, never by more than its per-op rounding. Bodies with ops other
    than arithmetic, comparisons, selects, conversions and math functions
    are left alone. Counters (`--dlc-pass-stats`): `widened` (generics
    rewritten), `ops` (ops of theirs that computed in f16 or bf16).
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def CPUTransposeProductOperandsPass
    : Pass<"dlc-cpu-transpose-product-operands", "mlir::func::FuncOp"> {
  let summary = "Copy a matrix product's B read as [.., n, k] to [.., k, n] first";
  let description = [{
    A product `C[.., m, n] += A[.., m, k] * B[.., n, k]` on tensors
    (`graph.batch_matmul`, which multiplies by its second operand
    transposed, as attention's Q x K' does; a dense layer whose weight is
    computed) reads B across its rows. The register-tiled product kernel
    loads rows of B along n as vectors, so it does not take such a product,
    and the generic loop nest LLVM vectorizes instead gathers B with a
    stride of k. This pass copies B transposed (`linalg.transpose` into
    `[.., k, n]`) before the product and makes the product read the copy:
    n k moves for m n k multiply-adds. Products with fewer than 4 rows (m)
    are left alone, as are constant weights, which `dlc-cpu-pack-weights`
    (run before) stores as the kernel reads them. Counters
    (`--dlc-pass-stats`): `transposed`.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
}

def CPUPackWeightsPass : Pass<"dlc-cpu-pack-weights", "mlir::ModuleOp"> {
  let summary = "Store the constant B of matrix products as panels a register tile reads in order";
  let description = [{
    Runs on tensors after kernel outlining, before tile-and-fuse. A kernel
    argument read only as the B of f32 matrix products, all reading it as
    [k, n] indexed (k, n) or all as [n, k] indexed (n, k) (a dense layer's
    weight, [out, in]), and passed a constant by every call, is rewritten at
    compile time. When n is a multiple of the register tile's width nr (32
    columns with 512-bit vectors, 16 with 256-bit ones) it is stored as
    panels `[n / nr][k][nr]`, packed from either layout: the argument takes
    the panels' type and the products read B through
    `(n floordiv nr, k, n mod nr)`. The register-tiled product kernel then
    reads each tile's rows of B consecutively instead of n floats apart (a
    new page at every step for BERT's feed-forward weights). Tiles of such
    products along n start at multiples of nr. Otherwise an [n, k] B is
    stored transposed, [k, n], which the kernel loads along its rows instead
    of gathering (like TVM's AlterOpLayout for x86 dense). A batch of such
    matrices, `[batch, k, n]` or `[batch, n, k]` read by products whose own
    loop indexes the batch (a Winograd product's points, one matrix of
    transformed weights each), has each of its matrices so stored:
    `[batch][n / nr][k][nr]`, read through `(b, n floordiv nr, k, n mod nr)`;
    on ResNet-50 the panels' in-order reads took the 14 x 14 x 256
    Winograd kernels from 9.4% to 6.2% of the time (two threads). Each constant
    is written to a new payload, or, when the pass is built with a
    predicate that says which payloads it may overwrite (the CPU compiler:
    those its own graph passes wrote) and no other constant holds the
    payload, within the payload itself (through a reused copy: no new
    pages). Counters (`--dlc-pass-stats`): `packed` and `transposed`
    (kernel arguments), `weights` (constants written), `in-place` and
    `in-place-bytes` (of them, rewritten within their payloads).

    With `bf16-dots` (the CPU compiler sets it where the host has
    AVX512-BF16), a bf16 kernel argument read only through its widening to
    f32 (GraphToLinalg computes mixed-precision products in f32), itself or
    its collapse into a matrix (an NHWC convolution's HWIO weight as
    [KH*KW*C, O], which GraphToLinalg widens after the collapse), as the B of
    products whose A is widened from bf16 too, with k even, is stored
    instead as panels of pairs `[ceil(n / nr)][k / 2][nr][2]`:
    each pair of a row holds the two values of B, k and k + 1, that one
    lane of a bf16 dot product multiplies by a pair of A. The products
    then take the bf16 values themselves, B through `(n floordiv nr,
    k floordiv 2, n mod nr, k mod 2)`, and widen them in their bodies;
    `dlc-cpu-vectorize-contractions` computes them with `vdpbf16ps`. Where
    n is no multiple of nr, the last panel is padded with zeros and each
    product computes into an accumulator of whole panels (from the same
    fill, or from zero with its initial values added afterwards), of which
    the kernel's value is the slice of n columns. The counter `pairs`
    counts such arguments.

    An f16 or bf16 argument read that way that does not become pairs (no
    `bf16-dots`, f16, odd k, an f32 A, a batch) is widened to f32 here,
    once, and packed (or transposed) like an f32 weight, or, where no such
    form applies (a `[k, n]` whose n is no multiple of nr), widened as it
    is; so is, as it is, any other
    f16 or bf16 constant argument of rank 2 or more that the kernel only
    widens (an NCHW convolution's weight, the product's A). The kernel's
    widening of it goes, instead of running at every call (counter
    `widened`).
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the target's vector registers (256: AVX2, 512: AVX-512; "
           "anything else is an error)">,
    Option<"bf16Dots", "bf16-dots", "bool", /*default=*/"false",
           "The target has AVX512-BF16 dot products: pack bf16 weights of "
           "mixed-precision products as pairs (needs vector-bits=512)">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def CPUPadBordersPass : Pass<"dlc-cpu-pad-borders", "mlir::func::FuncOp"> {
  let summary = "Pads as fills of their borders and a copy of their source";
  let description = [{
    Runs on tensors, before bufferization, which would write a `tensor.pad`
    as a fill of the whole padded buffer and then copy the source over its
    interior: every element inside written twice. Each pad of static shapes
    and padding whose value does not depend on the position (a constant, a
    value defined outside the pad) becomes a `tensor.empty`, one
    `linalg.fill` of each padded side of each dimension (the side of a
    dimension spans the source in the dimensions before it and everything
    in those after, so the sides are disjoint), and an `insert_slice` of the
    source; these bufferize in place. Pads of dynamic shape or padding,
    negative padding (a crop), `nofold` pads and those whose value depends
    on the position are left. Counters
    (`--dlc-pass-stats`): `borders`, `left`.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect", "mlir::tensor::TensorDialect"];
}

def CPUResultsInPlacePass : Pass<"dlc-cpu-results-in-place", "mlir::func::FuncOp"> {
  let summary = "Compute a function's results in its out-parameters instead of copying them there";
  let description = [{
    After bufferization and `buffer-results-to-out-params`, a function ends
    with `memref.copy %buffer, %out` for each result. Where `%buffer` is a
    `memref.alloc` at the top of the function with `%out`'s type, and
    `%out` is used by nothing else, the function computes in `%out`: the
    allocation becomes the out-parameter and the copy is erased. Every
    kernel then writes its result where its caller wants it, and the model
    function its outputs where the user wants them, instead of copying each
    whole result once more (MobileNetV2: 33 copies of up to 1.8 MB per
    inference). Out-parameters are assumed not to alias the inputs, as
    `dlc-cpu-noalias-args` declares. Counters (`--dlc-pass-stats`):
    `in-place`.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def CPUPlanBuffersPass : Pass<"dlc-cpu-plan-buffers", "mlir::ModuleOp"> {
  let summary = "Place a model's buffers, kernels' temporaries among them, in one workspace kept between runs";
  let description = [{
    After bufferization a model function allocates a buffer for every
    intermediate value and frees them all at its end: ResNet-50's 43 MiB
    per inference, BERT-base's 109 MiB, and a program that links an
    ahead-of-time model paid for fresh pages on every run unless it tuned
    its allocator. This pass gives every static `memref.alloc` of a
    function's body whose uses all lie in that body (directly, through
    views, or in the regions of its ops) a byte offset in one workspace, the
    function's only allocation: two buffers share bytes only when no op of
    the body uses both and none lies between their uses. Offsets are
    chosen greedily, largest buffer first, each at the lowest aligned
    offset that no overlapping-lifetime buffer occupies (as TFLite's and ONNX
    Runtime's arena planners do). The buffers become `memref.view`s of the
    workspace and their deallocations go. A buffer that escapes (returned,
    yielded, merged with another by an op that is not a view) keeps its own
    allocation; a function with no buffer to plan is left unchanged.

    Kernels (`dlc.kernel`) are planned first. A private kernel called only
    by `func.call`s from functions that are not kernels takes its workspace
    as a last argument instead, a buffer its callers allocate around each
    call and plan with their own, so that the kernels' temporaries (im2col
    matrices, products before their epilogue) share the model's workspace.
    With `static-workspace` (the default), each other function's workspace
    of at most 1 GiB (code reaches its globals within 2 GiB) is a private
    `memref.global` kept between runs: a run takes it by
    setting a flag (`memref.atomic_rmw assign`) and clears the flag before
    returning, and a run that finds the flag set (the function entered
    again before it returned, from another thread) allocates a workspace of
    its own. A run then allocates nothing. Counters: `planned` (buffers),
    `kernel-workspaces`, `hoisted` (kernel workspaces made arguments),
    `static` (workspaces made globals), and for the functions that are not
    kernels `buffer-bytes` (what their buffers, hoisted workspaces among
    them, allocated before) and `workspace-bytes`.
  }];
  let options = [
    Option<"staticWorkspace", "static-workspace", "bool", /*default=*/"true",
           "keep each non-kernel function's workspace in a global between runs">,
  ];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::memref::MemRefDialect",
                           "mlir::scf::SCFDialect"];
}

def CPUTileAndFusePass : Pass<"dlc-cpu-tile-and-fuse", "mlir::func::FuncOp"> {
  let summary = "Compute each reduction op with its initial value and elementwise epilogue tile by tile";
  let description = [{
    Every op with reduction loops on tensors (matrix products, convolutions,
    pooling, reductions) is an anchor. The chain of single-use elementwise
    ops that consumes it (bias, activation, residual add; after a reshape of
    a convolution's collapsed result, at the anchor's shape) is tiled by the
    anchor's cache tiles, and the anchor, its initial value (fill or bias
    broadcast, unshared first if CSE merged it with another op's) and the
    chain's other elementwise producers are fused into that loop, so that a
    tile is filled, accumulated and finished while it is in cache. Matrix
    products get tiles of whole register tiles (`vector-bits` as in
    dlc-cpu-vectorize-contractions; all the rows, cut only as far as the
    threads need, where no column tile divides n, so that B is not read
    again for every few rows; where B (f32, or bf16 pairs) is more than 512
    KiB, up to 16 register tiles of rows rather than 8, and the threads
    split its columns before its rows, so that each thread reads its part of
    B once), other anchors whole output rows and
    about 4096 outputs per tile. A window op whose input is a `tensor.pad`
    (a padded depthwise convolution or pooling) gets tiles of whole planes,
    and the padding is fused too: each tile pads its own planes, in cache and
    in parallel, instead of one serial copy of the whole tensor. Channels-last,
    a tile's planes are a vector's worth of channels, fewer where those padded
    planes would be more than the 1 MiB a thread's stack keeps for them. At
    stride 1, where such a plane would be more than 128 KiB (planes from 56 x
    56), the tiles are bands of output rows instead, with all the channels or
    as many (multiples of a vector) as keep the band's padded input within
    128 KiB: each tile fills a buffer of its band's size with the padding
    value and copies in the rows and columns of the input that exist (the
    first and last bands reach the border, so the padding of a band is not
    static). A reduction that keeps its reduced dimension (a softmax's or
    layer norm's `1x128x1`, whose result is indexed by 0 there) is tiled by
    its rows too, but as its own root: a consumer's tile cannot recompute
    it. Tiles divide
    the loops; anchors with dynamic shapes, or that would be one tile, are
    left alone. With `threads` > 1 the tile loop is an `scf.forall` with at
    least `threads` tiles (a product that no multiple of the register tile
    divides, such as a 1 x 1000 classifier, and that has at least 65536
    multiply-adds, is split into tiles of any size). A product's tile
    narrower than the output's rows computes in a buffer of its own, which
    dlc-cpu-tile-buffers keeps on the thread's stack up to 512 KiB; where
    all the rows (no multiple of the register tile divides them, such as an
    NHWC convolution's 784 or 1444 positions) would make it larger, the rows
    go in tiles of any size instead of a heap buffer per tile (but for the
    rows kept whole where no column tile divides n). Counters
    (`--dlc-pass-stats`): `tiled`, `fused` (producers fused), `fused-pads`,
    `padded-bands`.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"1", "Threads to use">,
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the vector registers (256 for AVX2, 512 for AVX-512)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::tensor::TensorDialect",
                           "mlir::linalg::LinalgDialect", "mlir::affine::AffineDialect"];
}

def CPUTileBuffersPass : Pass<"dlc-cpu-tile-buffers", "mlir::func::FuncOp"> {
  let summary = "Keep the buffers of tile loops out of the heap";
  let description = [{
    Runs on buffers before deallocations are placed. A static buffer of at
    most `max-bytes` allocated in the body of a tile loop (the intermediate
    tile of a fused loop nest) is allocated once before the loop when the
    loop is sequential (`scf.for`, through nested ones), and on the stack
    when the loop is an `scf.forall`, whose OpenMP body frees it after every
    iteration: heap allocation in worker threads costs page faults on every
    tile. Counters (`--dlc-pass-stats`): `hoisted`, `stacked`.
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"dlc::kCPUMaxStackPlaneBytes",
           "Largest buffer to move (the OpenMP threads' stacks are 4 MiB)">,
  ];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def CPUParallelizePass : Pass<"dlc-cpu-parallelize", "mlir::func::FuncOp"> {
  let summary = "Split linalg ops across threads with scf.forall";
  let description = [{
    Every linalg op with at least `min-elements` output elements is tiled
    into `threads` parts along its longest parallel loop (the outermost of
    equals; for a convolution's matrix product the output positions, so
    that each thread keeps whole register tiles), as an `scf.forall` that
    later lowers to an OpenMP parallel loop. With `threads` = 1 nothing
    changes. Counters
    (`--dlc-pass-stats`): `parallelized`.
  }];
  let options = [
    Option<"threads", "threads", "int64_t", /*default=*/"1", "Threads to use">,
    Option<"minElements", "min-elements", "int64_t", /*default=*/"4096",
           "Smallest op (output elements) worth splitting">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::tensor::TensorDialect"];
}

def CPUUnrollWindowsPass : Pass<"dlc-cpu-unroll-windows", "mlir::func::FuncOp"> {
  let summary = "Lower small-window ops (depthwise convolutions, pooling) to loops with the window unrolled, and vectorize their rows and those of elementwise ops";
  let description = [{
    A window op on buffers (a `linalg.generic` with an input indexed by a sum
    of loops, e.g. a generalized depthwise convolution or pooling) whose
    reduction loops have static ranges of at most `max-window` iterations in
    all becomes loops over the output, with the output's contiguous
    dimension innermost, around the fully unrolled window. Each output
    element then takes its whole window in one iteration, accumulating in a
    register, instead of rereading and rewriting the output row once per
    window position. The loop along the output row is then vectorized by
    `vector-bits` (a shorter power of two for short rows): unit-stride
    input reads become vector reads, stride-2 ones a read of twice the
    lanes and a shuffle of its even elements, window weights broadcasts,
    multiply-adds FMAs; reads and writes past a buffer's row are masked, so
    there is no scalar remainder (nor masks where whole vectors provably
    cover the row). f16 and bf16 values compute in f32 vectors, widened
    where read and rounded where stored (a bf16 max pooling exactly; the
    scalar loops LLVM made of it took 13x the f32 time). Rows with other
    strides stay scalar. Ops without
    reductions (the im2col copy of a convolution, elementwise epilogues,
    bias broadcasts) get the same loops and vectorized rows: on short rows
    (7 or 14 columns) LLVM would otherwise vectorize across rows with
    gathers and scatters. Reads of buffers a window op's loops do not write
    (its weights, an epilogue's bias) move out of the loops whose
    iterations they do not depend on: an NCHW depthwise convolution reads
    its nine weights once per channel instead of once per output vector.
    Other ops are left to dlc-cpu-loop-order. Counters (`--dlc-pass-stats`):
    `unrolled` (window ops), `vectorized` (ops whose rows were vectorized),
    `reads-hoisted`.
  }];
  let options = [
    Option<"maxWindow", "max-window", "int64_t", /*default=*/"49",
           "Largest window (product of the reduction loops' ranges) to unroll">,
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the vector registers (256 for AVX2, 512 for AVX-512)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::memref::MemRefDialect",
                           "mlir::vector::VectorDialect", "mlir::arith::ArithDialect"];
}

def CPULoopOrderPass : Pass<"dlc-cpu-loop-order", "mlir::func::FuncOp"> {
  let summary = "Put the innermost output dimension of window ops and contractions innermost";
  let description = [{
    Convolution and pooling generics (an input indexed by a sum of loop
    dimensions, e.g. `ow * stride + kw * dilation`) and contractions (dense,
    matmul, batch_matmul: two inputs and reduction loops) are interchanged
    so that the reduction loops run outside the loop of the output's last
    (contiguous) dimension, which becomes the innermost loop (for a depthwise
    NCHW convolution the output column, not the channel): it walks along an
    output row with no loop-carried dependence, which LLVM's loop vectorizer
    turns into vector code. Plain reductions keep their order. Counters (`--dlc-pass-stats`): `interchanged`.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def CPUVectorizeReductionsPass
    : Pass<"dlc-cpu-vectorize-reductions", "mlir::func::FuncOp"> {
  let summary = "Reduce contiguous rows of buffers in vector registers";
  let description = [{
    A `linalg.generic` on f32 buffers whose last loop is its only reduction
    loop, of at least 4 iterations, with every input read along it
    contiguously (the loop indexes only the input's last dimension) or not
    at all, and whose body is elementwise arith and math ops ending in one
    combination of a value into the output (`addf`, `mulf`, `maximumf`,
    `maxnumf`, `minimumf`, `minnumf`): a softmax's max and sum, a layer
    norm's mean and variance, a global pooling over a row. It becomes loops
    over its other dimensions around a row loop that combines `vector-bits`
    / 32 elements a step into a vector of partial results (a shorter power
    of two for shorter rows), one horizontal reduction of that vector, a
    scalar loop over the rest of the row, and the output's value combined
    last. The additions are in another order than the scalar loop's (lanes
    apart, then a tree): the same on every run and any thread count, since
    a row is one thread's. Counters (`--dlc-pass-stats`): `vectorized`.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the vector registers (256 for AVX2, 512 for AVX-512)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::memref::MemRefDialect",
                           "mlir::vector::VectorDialect", "mlir::arith::ArithDialect",
                           "mlir::affine::AffineDialect"];
}

def CPUVectorizeContractionsPass
    : Pass<"dlc-cpu-vectorize-contractions", "mlir::func::FuncOp"> {
  let summary = "Tile matrix products on buffers into register blocks of FMAs";
  let description = [{
    Every f32 matrix product on buffers, `C[.., m, n] += A[.., m, k] *
    B[.., k, n]` with B and C contiguous along n (matmul, batch_matmul and
    the im2col form of NCHW convolutions), is tiled for the cache (tiles
    that divide the loops, up to 8 register tiles of rows, 256 columns and
    256 reduction steps; up to 16 register tiles of rows where B is more
    than 512 KiB, half of a 1 MiB L2 cache, so that each tile of B read
    from beyond L2 serves twice the rows; where no such tile divides more
    than 256 columns, blocks of 256 columns walked outermost, so that a
    block of B stays in cache while all the rows go by, the last, partial
    block peeled off),
    then into register tiles with the reduction
    innermost: 8 rows x 2 vectors with 512-bit vectors (16 of the 32
    registers hold the accumulator), 6 rows x 2 vectors with 256-bit ones
    (12 of 16). Partial row and column tiles are peeled off; every tile
    with a static shape is vectorized (a partial column tile as whole
    vectors whose loads and stores are masked past its last column), its
    accumulator kept in registers across the reduction loop, and the
    contraction lowered to broadcast + FMA outer products. A product whose B
    is packed into panels of the register tile's width (dlc-cpu-pack-weights)
    reads one panel row per step; where that B is more than 512 KiB too, its
    columns are not blocked and a cache tile has more than one row of
    register tiles, these fetch the next cache tile's B into the cache
    (`memref.prefetch`; the next tile along k, else along the panels, the
    last wrapping to the first), each row of register tiles its share of
    the next tile's rows, spread over its reduction steps: B then streams
    from memory while the whole tile computes, instead of while its first
    row of register tiles waits. Where a fill of a constant wrote C just
    before the product and no cache tile cuts the reduction, each register
    tile whose accumulator is kept in registers starts it from the constant
    instead of reading C, and the fill is erased when every register tile of
    the product does. Other ops are left alone.
    Counters (`--dlc-pass-stats`): `scheduled`, `blocked` (products whose
    columns went in blocks with a partial last one), `peeled`, `vectorized`,
    `packed` (register tiles reading B's panels), `prefetched` (products
    whose tiles fetch the next tile's B), `fills-folded`.

    A product of bf16 values accumulated in f32 whose B is packed into
    panels of pairs (dlc-cpu-pack-weights with `bf16-dots`) is tiled for
    the cache along m and n only, then computed by register tiles of
    AVX512-BF16 dot products: 8 rows x 2 vectors of 16 f32 accumulators
    (fewer rows for the last, partial row tile), each step of the reduction
    taking a pair of k: two vectors of 32 bf16 from B's panel row, and per
    row a pair of A's values broadcast to every lane, into
    `x86vector.avx512.dot` (`vdpbf16ps`: 32 multiply-adds per instruction,
    twice an f32 FMA's). Its counter is `dots` (cache tiles so computed);
    a paired product whose tiles cannot be computed so stays correct scalar
    loops, with a warning, counted as `pair-loops`.
    The products of bf16 pairs are exact in f32 and the sums are rounded
    in f32, as on the widening path, but in the instruction's order (a
    lane adds its pair's two products to the accumulator in one step), so
    results agree within f32 rounding; the instruction also flushes
    subnormal inputs and results to zero.
  }];
  let options = [
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"256",
           "Width of the target's vector registers (256: AVX2, 512: AVX-512; "
           "anything else is an error)">,
  ];
  let dependentDialects = ["mlir::scf::SCFDialect", "mlir::vector::VectorDialect",
                           "mlir::affine::AffineDialect", "mlir::memref::MemRefDialect",
                           "mlir::x86vector::X86VectorDialect"];
}

def CPUCopiesToLinalgPass : Pass<"dlc-cpu-copies-to-linalg", "mlir::func::FuncOp"> {
  let summary = "Turn strided buffer copies into linalg.copy loops";
  let description = [{
    Bufferization writes a padded tensor, an inserted slice or a
    concatenation operand with `memref.copy` into a strided view. LLVM lowers
    such a copy to a call to MLIR's generic `memrefCopy` runtime, which
    walks one element at a time through the strides (and is missing from
    ahead-of-time builds). Every `memref.copy` that LLVM would lower so
    (either side has a layout that is not the identity and is not known to
    be contiguous: a static shape with contiguous strides) becomes a
    `linalg.copy`, i.e. a loop nest whose innermost loop LLVM vectorizes;
    this includes views of dynamic size, such as a window tile's band of
    rows. The others stay (they become `memcpy`). Counters
    (`--dlc-pass-stats`): `copies`.
  }];
  let dependentDialects = ["mlir::linalg::LinalgDialect"];
}

def CPULocalizeConstantsPass : Pass<"dlc-cpu-localize-constants", "mlir::func::FuncOp"> {
  let summary = "Give scf.forall bodies their own copies of the constants they use";
  let description = [{
    An `scf.forall` becomes an OpenMP region whose body LLVM outlines into a
    function that receives every value defined outside through a structure
    in memory. A constant read that way is a load LLVM cannot always hoist,
    which keeps it from vectorizing elementwise epilogues (GELU's
    polynomial, for one). Each constant-like op used in a forall body is
    cloned at the start of the body. Counters (`--dlc-pass-stats`): `copied`.
  }];
}

def NameConstantsPass : Pass<"dlc-name-constants", "mlir::ModuleOp"> {
  let summary = "Name and order bufferization's constant globals by their first use";
  let description = [{
    One-shot bufferization turns each constant tensor into a `memref.global`
    named after its type (`__constant_16xf32`, then `_0`, `_1`, ...) in the
    order it bufferizes functions, which upstream takes from a hash map of
    function pointers: two compiles of one model could name (and emit) the
    same constants differently. This pass renames every `__constant_`
    global in the order of its first `memref.get_global` in the module
    (unused ones last, in module order), keeping the type in the name, and
    moves the globals to the start of the module in that order, so that the
    lowered IR and the object code are the same on every compile. Counters
    (`--dlc-pass-stats`): `globals`.
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def FlattenConstantGlobalsPass : Pass<"dlc-flatten-constant-globals", "mlir::ModuleOp"> {
  let summary = "Store the LLVM dialect's constant arrays flat, one dimension each";
  let description = [{
    A multi-dimensional `memref.global` lowers to an `llvm.mlir.global` of
    nested arrays, which translation to LLVM IR builds as one LLVM constant
    per innermost row (a 1x1 convolution's 256x64x1x1 weights: 16384
    one-element arrays, each uniqued by its bytes) that every later LLVM
    pass and the context's teardown walk again. With the weights in the
    code (`dlc-run --emit`) that took minutes for ResNet-50. This pass gives
    every constant global whose type nests arrays of scalars one flat array
    of the same bytes (`!llvm.array<N x f32>`, its dense or resource value
    reshaped without a copy of a resource's blob). Each `llvm.getelementptr`
    names the type it indexes through, so the addresses the code computes
    stay the same; those of all zeros, which point at the global's start,
    become its address. Globals inside `gpu.module`s are not touched (the
    GPU pipeline runs it on the host module, after the kernels became
    binaries). Counters (`--dlc-pass-stats`): `flattened`.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

def CPUNoAliasArgsPass : Pass<"dlc-cpu-noalias-args", "mlir::func::FuncOp"> {
  let summary = "Mark the buffer arguments of public functions as not aliasing";
  let description = [{
    After bufferization, a public function's memref arguments are the
    caller's inputs, weights and outputs, which dlc's executors always pass
    as distinct buffers (the contract `dlc-cpu-results-in-place` assumes).
    This pass marks them `llvm.noalias`. In LLVM IR the mark stays on the
    C wrapper's descriptor pointers only: MLIR 22's FuncToLLVM drops the
    attributes of arguments that expand to several (a memref's pointers,
    offset, sizes and strides), so the data pointers of the model function
    and of its kernels carry none. Marking every kernel pointer `noalias` by
    hand made no difference beyond noise to ResNet-50's latency or compile
    time (AMD EPYC Zen 3, 2026-12-03), so nothing restores it. Counters
    (`--dlc-pass-stats`): `arguments`.
  }];
}

//===----------------------------------------------------------------------===//
// NVIDIA GPUs
//===----------------------------------------------------------------------===//

def GPUMapToThreadsPass : Pass<"dlc-gpu-map-to-threads", "mlir::func::FuncOp"> {
  let summary = "Run every loop nest of a function as a GPU kernel: a thread or a warp per output, tiles for matrix products";
  let description = [{
    After bufferization, every `memref.copy` becomes a `linalg.copy` and every
    linalg op a loop nest, its parallel dimensions as one `scf.parallel` and
    its reduction dimensions as `scf.for` loops inside. Each loop nest at the
    top of the function then becomes a `gpu.launch` of 256-thread blocks over
    the parallel iterations, linearized: thread `blockIdx.x * 256 +
    threadIdx.x` (if below their count) delinearizes its index into the
    loops' induction variables and runs the body, reductions included. A
    nest whose outermost loop is not a parallel one of constant bounds (a
    reduction to a scalar, a reduction over the first dimension) runs on one
    thread; so does a whole function that computes scalars between its
    loops (non-maximum suppression). A nest of no iterations is erased.
    Reductions of few outputs, or whose inputs are contiguous only along the
    reduction (dense layers), get a warp per output combining with shuffles.
    Matrix products (`out += a * b` in f32 over one reduction dimension, at
    least 16 x 16 outputs: dense layers, attention, convolutions after
    im2col) get tiled kernels instead: a block of 256 threads per 128 x 128,
    64 x 64, 32 x 64 or 32 x 32 output tile (the largest, up to `max-tile`
    rows and columns, that gives 128 blocks; 128 x 128 only for products of
    at least 128 rows and columns, on f16 or bf16 values or with columns
    along one loop, where they measured faster), each thread accumulating
    64, 16, 8 or 4 outputs in registers with fused
    multiply-adds from tiles of both inputs staged 16 reduction steps at a
    time in shared memory (products of f16 or bf16 values 32, where an A/B
    on an H100 measured them faster; `tile-depth` sets either); each thread loads its share of the next step
    while the block multiplies (the loop carries the loaded values).
    Threads' indices are split into loops' in 32-bit arithmetic where the
    sizes allow. When the tiles are still too few to occupy the
    GPU, the reduction is split towards `split-blocks` blocks (by default
    512 for products on tensor cores, where an A/B on an H200 measured it
    faster, 128 for others) in slices of at least 8 steps (of tiles up to
    64 x 64) summed into a buffer, which a
    second kernel adds to the output in order (the same result every run).
    With `last-block-sums`, the tiles' kernel adds them instead
    (`last-block-sums` counts such products): each block stores its slice,
    makes it visible to the GPU (a fence) and counts it in the tile's count
    of finished slices (an atomic add by one thread, in a buffer marked
    `dlc.gpu.zeroed`, which dlc-gpu-host-buffers puts in device memory once,
    zeroed, for the process); the block counting the last slice adds the slices to the
    output in the same order, its consecutive threads on consecutive
    columns, applies the epilogue and sets the count back to zero, so the
    counts are zero again for the next launch (the runtime's one stream
    runs launches one after another). One kernel fewer per split product,
    and the sums added in the same order.
    With `tf32`, the tiled products run on tensor cores: each warp of the
    block computes 32 x 64 outputs of a 128 x 128 tile, 16 rows of a
    smaller one, with `mma.sync` m16n8k8 on TF32
    (inputs rounded to TF32 once, as they are staged, f32 accumulation; sm_80 and
    later), as PyTorch's convolutions do by default. With `narrow-mma`, a
    tiled product whose inputs are both f16 values (or both bf16), widened
    to f32 by conversions its kernel reads through, runs on tensor cores
    with `mma.sync` m16n8k16 on them: its tiles hold the narrow values in
    pairs, the products are exact and the tensor cores sum them in f32 (no
    rounding of the inputs added, unlike TF32; sm_80 and later). With
    `copy-stages` (2 to 4), a product on tensor cores copies its inputs
    contiguous along the reduction in a buffer of their values (f16 or
    bf16, read through a widening; with `tf32`, f32, read where it is; or
    through a transpose keeping the last dimension, or an im2col whose
    innermost loop walks a pixel's channels (NHWC), through a padding by
    zeros, a chunk outside it copied as zeros; the reduction a whole
    number of steps) into shared memory with cp.async, 16 bytes a copy
    (TF32's values rounded where the fragments are loaded, not where they
    are staged: the same products), and those contiguous along the rows or
    columns (a whole number of copies long) where their tile is
    reduction-major with each step's rows or columns consecutive (TF32
    without `ldmatrix`, f16 and bf16 with it),
    into a ring of that many stages each in the block's dynamic shared
    memory (up to 96 KB in all; fewer stages where more would not fit):
    the copies of the next stages - 1 steps are in flight while a step is
    multiplied, and a block whose inputs are both copied passes one barrier
    a step (`async-copied-inputs`). With `ldmatrix`, such a product
    loads the fragments of its inputs with `ldmatrix` (sm_75 and later): a
    warp's instruction loads four 8 x 8 matrices of 16-bit values, an A
    fragment of 16 rows or the B fragments of 16 columns, each lane
    receiving the words `mma.sync` takes from it, instead of one 32-bit
    load a lane per word (`ldmatrix-inputs`); an input not contiguous
    along the reduction is staged as pairs of consecutive rows or columns,
    reduction-major, and loaded with `ldmatrix.trans`. With `tf32` too, the
    TF32 products' tiles hold each row's or column's steps consecutively
    and ldmatrix loads them (a TF32 value is a pair of halves to it).
    With `vector-loads`, the inputs such a product could copy but does not
    (`copy-stages` 0, or too little shared memory for two stages) are
    staged through registers into the same tiles 16 bytes a load and a
    store, a step ahead, instead of an element at a time
    (`vector-loaded-inputs`).
    Those tiles are in the block's dynamic shared memory (16-byte
    aligned). A
    reduction whose
    dimensions are not innermost has its loops reordered first, so that its
    outputs get threads (`reductions-moved-innermost`). A tiled product's
    kernel also computes the elementwise ops around it, which then launch
    no kernel and write no buffer of their own: the ops that only move or
    widen elements into a buffer only the product reads (an im2col, a
    transpose, a padding: a constant fill and a copy into a window, an
    arith.extf widening f16 or bf16) are read through
    where the tiles are staged (`fused-inputs`); the op writing the
    output's initial values just before the product (a zero fill, a bias
    broadcast) gives the accumulators theirs (`fused-inits`); the
    elementwise op reading the output just after it, into buffers neither
    reads (or updating the output in place, each element where it reads
    it: a bias and an activation), runs on each result as it is stored,
    then each op after it that reads, element for element through a
    reshape, the one buffer the one before writes, and no other buffer the
    kernel writes (a conversion, then a transpose into the heads' layout;
    `fused-epilogues` counts them all), each op's results stored too only
    if its output is read later or is the caller's and not updated. With `fuse-reductions`, a
    reduction's kernel (a thread or a warp per output, as above) computes
    the same ops around it: its output's initial values (a fill: the loop
    starts from the value instead of loading it), the elementwise op
    reading its results just after (a layer norm's mean and variance
    divided by the length, a softmax's sums), inputs read through
    (`fused-reductions` counts them; BERT-base at batch 1 launches 396
    kernels instead of 521). With `row-kernels`, a function whose ops all
    work row by row (reductions along the rows, of one number of rows, and
    elementwise ops, every buffer the function writes read and written by
    row; a layer norm or a softmax, after dlc-gpu-merge-row-kernels) runs
    as one kernel (`row-kernels`): a warp per row runs the ops in turn, its
    lanes striding over the row, a reduction combined by a butterfly of
    shuffles, the warp synchronized between ops. Window reductions (an input
    indexed by a sum of loops, the output by the parallel ones: depthwise
    and grouped convolutions, pooling) get a kernel of their own too
    (`window-reductions`): a thread per output element, consecutive
    threads on consecutive elements of the output (linalg's depthwise
    convolution puts its channels innermost, which would read and write a
    plane apart), the window's loops in the thread with the accumulator in
    a register, and the same ops around it fused: the input's padding read
    through, the initial values, the epilogue. A loop over blocks
    (`scf.forall` of at most three dimensions and static bounds, from
    dlc-tile-attention: an attention's heads and blocks of query rows)
    whose body allocates at most 96 KiB of static buffers is one kernel
    (`block-kernels`): a block of 128 threads per iteration, the buffers
    in shared memory (beyond 48 KiB, in its dynamic shared memory), each
    linalg op of the body run by the block's threads (a thread per output,
    taking outputs 128 apart; a warp per output of a reduction of 32 steps
    or more that has fewer outputs than threads or reads its inputs only
    along the reduction, combined with shuffles) with a barrier between
    two ops. Another such loop, or any loop over blocks in a function that
    runs as one single-thread kernel, runs an iteration a thread
    (`block-loops-on-threads`) if it allocates nothing, and is an error
    otherwise. First, a copy from a buffer of the function used only before
    it into one (or a reshape of one) not used meanwhile writes there
    instead (`copies-forwarded`). Kernels are named `k_<layer>` after the op's
    location. Counters (`--dlc-pass-stats`): `kernels`, `single-thread`,
    `warp-reductions`, `tiled-products`, `window-reductions`,
    `reductions-moved-innermost`,
    `fused-inputs`, `fused-inits`, `fused-epilogues`, `async-copied-inputs`,
    `ldmatrix-inputs`, `vector-loaded-inputs`, `fused-reductions`, `row-kernels`,
    `copies-forwarded`, `last-block-sums`, `block-kernels`,
    `block-loops-on-threads`.
  }];
  let options = [
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "Matrix products on tensor cores in TF32 (sm_80 and later)">,
    Option<"narrowMMA", "narrow-mma", "bool", /*default=*/"false",
           "Products of f16 or bf16 values on tensor cores, exactly (sm_80 and later)">,
    Option<"maxTile", "max-tile", "int64_t", /*default=*/"128",
           "The most rows and columns of a tiled product's output tile: 128, 64 or 32">,
    Option<"tileDepth", "tile-depth", "int64_t", /*default=*/"0",
           "The reduction elements a tiled product stages per step: 16 or 32 (0: 32 for "
           "products of f16 or bf16 values, 16 for others)">,
    Option<"splitBlocks", "split-blocks", "int64_t", /*default=*/"0",
           "The blocks a tiled product with fewer splits its reduction towards (into "
           "slices of at least 8 steps), 32 to 4096 (0: 512 for products on tensor cores, "
           "128 for others)">,
    Option<"copyStages", "copy-stages", "int64_t", /*default=*/"0",
           "Stages of shared memory a tiled product on tensor cores (f16, bf16, TF32) copies "
           "its inputs contiguous along the reduction into with cp.async, 2 to 4 (0: none, "
           "each thread loads its elements a step ahead)">,
    Option<"fuseReductions", "fuse-reductions", "bool", /*default=*/"false",
           "A reduction's kernel also computes the elementwise ops around it: its "
           "output's initial values, the op reading its output just after, inputs read "
           "through">,
    Option<"rowKernels", "row-kernels", "bool", /*default=*/"false",
           "A body of row-wise ops (a layer norm's, a softmax's reductions along rows and "
           "the elementwise ops on them) runs as one kernel, a warp per row">,
    Option<"lastBlockSums", "last-block-sums", "bool", /*default=*/"false",
           "A tiled product that splits its reduction adds the slices in its own kernel: "
           "the last block to finish a tile, instead of a second kernel">,
    Option<"ldmatrix", "ldmatrix", "bool", /*default=*/"false",
           "A tiled product on tensor cores loads the fragments of its inputs with ldmatrix "
           "(ldmatrix.trans for f16 or bf16 inputs not contiguous along the reduction)">,
    Option<"vectorLoads", "vector-loads", "bool", /*default=*/"false",
           "A tiled product on tensor cores stages the inputs it could copy with cp.async "
           "but does not (copy-stages=0) through registers 16 bytes a load and a store">,
  ];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::scf::SCFDialect",
                           "mlir::affine::AffineDialect", "mlir::linalg::LinalgDialect",
                           "mlir::math::MathDialect", "mlir::memref::MemRefDialect",
                           "mlir::NVVM::NVVMDialect", "mlir::LLVM::LLVMDialect"];
}

def GPUMergeKernelModulesPass : Pass<"dlc-gpu-merge-kernel-modules", "mlir::ModuleOp"> {
  let summary = "Put every outlined GPU kernel into one gpu.module";
  let description = [{
    `gpu-kernel-outlining` gives each kernel a `gpu.module` of its own. The
    kernels move into one module, `@dlc_kernels`, and the launches refer to
    them there: the model compiles to one PTX file (one ptxas run, one
    module for the runtime to load). Counters (`--dlc-pass-stats`):
    `kernels`.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect"];
}

def GPUHostBuffersPass : Pass<"dlc-gpu-host-buffers", "mlir::ModuleOp"> {
  let summary = "Put the functions' buffers in device memory";
  let description = [{
    After `dlc-gpu-map-to-threads`, the host code of a function only
    allocates buffers and launches kernels. Each `memref.alloc` becomes a
    `gpu.alloc` freed (`gpu.dealloc`) before the function returns (after
    bufferization with results as out-parameters no buffer outlives its
    function). Each `memref.get_global` (a constant: weights) becomes a call
    of `dlc_cuda_constant_<element type>` (C interface, dlc's CUDA runtime),
    which uploads the constant on its first use and returns its device copy
    from then on: weights cross to the GPU once per process, not once per
    call. A buffer marked `dlc.gpu.zeroed` (split products' counts of
    finished slices, which their kernels leave zeroed) becomes a zeroed
    module global of its own, uploaded the same way: it persists, zeroed,
    from call to call. Existing deallocations are dropped (the function's
    end frees every buffer). A buffer allocated inside a region, and a
    constant of an element type the runtime has no upload for, are refused.
    Counters (`--dlc-pass-stats`): `buffers`, `constants`, `zeroed-buffers`.
  }];
  let dependentDialects = ["mlir::gpu::GPUDialect", "mlir::func::FuncDialect"];
}

def GPUMergeRowKernelsPass : Pass<"dlc-gpu-merge-row-kernels", "mlir::ModuleOp"> {
  let summary = "Merge consecutive calls of kernel functions working row by row into one";
  let description = [{
    FuseOps puts a layer norm into several kernels (the mean, the
    difference, the variance, the normalization, a conversion) and a
    softmax's mask before it and conversion after it into kernels of their
    own. After bufferization, a run of consecutive calls of kernel functions
    (private, `dlc.kernel`; nothing between them but allocations, views
    and constants) whose bodies together form a row kernel (RowKernel.h:
    reductions along rows of one number, every buffer written read and
    written by row) becomes one call of a new function running their
    bodies in turn on the buffers the calls passed (views recreated
    inside). `dlc-gpu-map-to-threads{row-kernels}` then launches it as one
    kernel, a warp per row. A run needs a reduction and two calls or more;
    functions no longer called are erased. Counters (`--dlc-pass-stats`):
    `merged-calls` (the calls replaced), `row-functions` (the functions
    made).
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def GPUExternalProductsPass : Pass<"dlc-gpu-external-products", "mlir::ModuleOp"> {
  let summary = "Hand the matrix products of partitions for the cublas target to cuBLAS";
  let description = [{
    TVM's BYOC flow for cuBLAS: AnnotateTarget{targets=cublas} marks the
    denses, matrix products and batched products, PartitionGraph outlines
    them into functions whose `graph.backend` is `cublas`, and
    dlc-outline-kernels marks their kernels `dlc.backend = "cublas"`. After
    bufferization, each product of such a kernel (a linalg contraction:
    out + a * b, its inputs f32, f16 or bf16, its output theirs or f32)
    becomes a call of dlc's CUDA runtime, `dlc_cublas_gemm_<in>_<out>(A, B,
    C, flags)`, over rank-3 views [batch, rows, columns] of its buffers
    (each group of loop dimensions one strided dimension; an operand
    without the batch has it of size 1 and stride 0). The runtime maps the
    views to one column-major strided batched GEMM (GemmPlan.h) on the
    runtime's stream. The output's initial values stay a kernel of dlc's
    (a dense's bias) and the call adds the product to them, but for a fill
    with zeros just before, which the call replaces (beta = 0). Mixed
    precision's f32 copies of f16 (bf16) inputs, and the truncation of the
    f32 output back, go: the call reads and writes the narrow buffers (a
    bias converted from the narrow type is then written in it). With
    `tf32`, f32 products use cuBLAS's TF32 compute type.

    A product the call cannot express (dynamic strides or offsets, a group
    of dimensions that is not one strided dimension, a broadcast within a
    group, other element types or bodies) stays dlc's own kernel, with a
    warning naming why. Counters: `products` (calls), `kept`.
  }];
  let options = [
    Option<"tf32", "tf32", "bool", /*default=*/"false",
           "f32 products on TF32 tensor cores (CUBLAS_COMPUTE_32F_FAST_TF32)">,
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "mlir::memref::MemRefDialect",
                           "mlir::arith::ArithDialect"];
}

def GPUMergeEpiloguesPass : Pass<"dlc-gpu-merge-epilogues", "mlir::ModuleOp"> {
  let summary = "Merge a product's kernel function with the elementwise or layout function after it";
  let description = [{
    FuseOps, as TVM's, fuses no transpose or reshape into the group of a
    matrix product before it: BERT's query, key and value denses, and its
    attention's context product, are each followed by a function of their
    own moving the heads (a reshape and a transpose), one more kernel and
    one more round trip through memory per product. After bufferization,
    a call of a kernel function followed by a call of another, with only
    allocations, reshapes, globals' addresses and constants between them,
    becomes one call of a new function running both bodies (KernelCalls.h)
    when the second's last linalg op is then the last of the epilogues a
    product or window reduction of the first computes in its kernel, with
    every op between them and no op after it but views, allocations and
    constants (ProductFusion.h: each epilogue reads, element for element
    and through a reshape, the one buffer the one before writes: a
    conversion to f16, then the transpose). The buffers only the two calls use, which
    the first writes for the second, are allocated in the new function,
    where the kernel no longer stores them. A merged call may take the
    call after it too. Functions no longer called are erased. Counters
    (`--dlc-pass-stats`): `merged-calls` (the calls replaced),
    `epilogue-functions` (the functions made).
  }];
  let dependentDialects = ["mlir::memref::MemRefDialect"];
}

def GPUInlineKernelFunctionsPass : Pass<"dlc-gpu-inline-kernel-functions", "mlir::ModuleOp"> {
  let summary = "Inline the kernel functions dlc-outline-kernels made into their callers";
  let description = [{
    `dlc-outline-kernels` gives every fused region and lone op a private
    function (the CPU compiles and caches each on its own). On the GPU each
    becomes launches of kernels, and their host side is better in the
    entry function: one place that launches everything on one stream and
    waits once. Every call of a single-block private function marked
    `dlc.kernel` is replaced by its body, and the function, once unused,
    erased. Counters (`--dlc-pass-stats`): `inlined`.
  }];
}

def GPUSeparateEmptyTensorsPass : Pass<"dlc-gpu-separate-empty-tensors", "mlir::func::FuncOp"> {
  let summary = "Give every use of a tensor.empty an empty tensor of its own, before bufferization";
  let description = [{
    CSE merges the `tensor.empty` ops of one type, and bufferization then
    lets every op whose output starts from the merged one write into the
    same buffer once the earlier value is dead. On the GPU that costs
    kernels: a stride-1 depthwise convolution computed in f32 on an f16
    input (mixed precision) had its output share the buffer of its widened
    input, which `dlc-gpu-map-to-threads` cannot then read through its
    padding (the window kernel would overwrite what other threads still
    read), so the padding and the widening stayed kernels of their own. Each
    use after the first gets a clone of the `tensor.empty` next to its user:
    every output its own buffer, as before CSE. The price is some device
    memory where buffers were shared: BERT-base's buffers 182 -> 191 MiB
    (f32) at batch 1, while MobileNetV2's in f16 shrink (34 -> 19 MiB, the
    padded copies gone); ResNet-50's are unchanged. Counters
    (`--dlc-pass-stats`): `separated`.
  }];
  let dependentDialects = ["mlir::tensor::TensorDialect"];
}

def GPUExternDynamicSharedPass
    : Pass<"dlc-gpu-extern-dynamic-shared", "mlir::gpu::GPUModuleOp"> {
  let summary = "Declare the kernels' dynamic shared memory external, as PTX wants it";
  let description = [{
    After `convert-gpu-to-nvvm`: the symbol it defines for
    `gpu.dynamic_shared_memory`, an array of no elements in shared memory
    (address space 3), is internal, and NVPTX then demotes it to a one-byte
    shared variable of each kernel (`.shared .b8 __dynamic_shmem__0;`,
    which ptxas lays out among the kernel's other shared variables) instead
    of the block's dynamic shared memory. Declared external, it is that:
    `.extern .shared .align 16 .b8 __dynamic_shmem__0[];`, where the
    launch's dynamic shared memory starts. Counters (`--dlc-pass-stats`):
    `declared-external`.
  }];
  let dependentDialects = ["mlir::LLVM::LLVMDialect"];
}

#endif // DLC_CONVERSION_PASSES_TD
