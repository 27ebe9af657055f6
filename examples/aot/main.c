/* Runs a model compiled ahead of time by dlc:
 *   dlc-run model.mlir --target=cpu --emit=obj -o model.o   (writes model.h)
 *   cc -O2 -I. main.c model.o -L/usr/lib/llvm-22/lib -lmlir_c_runner_utils \
 *      -Wl,-rpath,/usr/lib/llvm-22/lib -lm -o run_model
 * The model here takes one f32[1x4] input and returns one f32[1x4] output
 * (test/tools/aot.test builds it); adapt the buffers to your model's header. */
#include <stdio.h>

#include "model.h"

int main(void) {
  float input[4] = {1.0f, -2.0f, 3.0f, -4.0f};
  float output[4] = {0};
  void *inputs[] = {input};
  void *outputs[] = {output};
  main_run(inputs, outputs);
  printf("output:");
  for (int i = 0; i < 4; ++i)
    printf(" %g", output[i]);
  printf("\n");
  return 0;
}
