# reference.cmake: the CPU reference (reference/mla_ref.c), the error metrics
# and tolerance table (reference/metrics.c), the case generator
# (harness/gen.c) and the program's command-line behaviour. Label cpu.
#   test_reference   mlab_ref_compute (SGEMM, DGEMM) against the long-double
#                    loop mlab_ref_naive, the causal rule, empty sequences,
#                    batch order, dequantization
#   test_metrics     mlab_err_compute / mlab_tol_pass on hand-made arrays
#   test_gen         determinism, Philox streams, golden values, moments,
#                    the quantized tensors
#   test_cli         mlabench's exit codes and outputs (tests/test_cli.py)
#   test_help_options  each command's --help names its every long option
mlab_c_test(test_reference test_reference.c LABELS cpu)
mlab_c_test(test_metrics test_metrics.c LABELS cpu)
mlab_c_test(test_gen test_gen.c LABELS cpu)
if(Python3_Interpreter_FOUND)
  mlab_py_test(test_cli test_cli.py LABELS cpu)
  # every long option of a command's option table (harness/*.c) is in its --help
  mlab_py_test(test_help_options test_help_options.py LABELS cpu)
endif()
# the KV split rule (harness/splits.c) against the splits the H200 runs used
mlab_c_test(test_splits test_splits.c LABELS cpu)
# one naming rule: gen (harness/gen.c) and data/case_name.py (the recorder's)
if(Python3_Interpreter_FOUND)
  mlab_py_test(test_names test_names.py LABELS cpu)
endif()
# sweeps without files, slices, the device field, warnings and logs (tests/test_sweep.py)
if(Python3_Interpreter_FOUND)
  mlab_py_test(test_sweep test_sweep.py LABELS cpu)
endif()
# mlabench import: own q/kv bf16 + indptrs -> a full case file (tests/test_import.py)
if(Python3_Interpreter_FOUND)
  mlab_py_test(test_import test_import.py LABELS cpu)
  # data/README.md's torch snippet, as printed, through import/check/run (skipped without torch)
  mlab_py_test(test_torch_snippet test_torch_snippet.py LABELS cpu)
endif()
