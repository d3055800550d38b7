# sweep.cmake: several GPUs and machines (harness/sweep/): CTest resource
# allocation with a fake resource spec (CPU-only slices), label cpu; a real
# one-node Slurm started by the test itself, label slurm (skipped, 77,
# without slurm-wlm or without root).
if(Python3_Interpreter_FOUND)
  mlab_py_test(test_sweep_ctest test_sweep_ctest.py LABELS cpu)
  set_property(TEST test_sweep_ctest APPEND PROPERTY ENVIRONMENT "MLAB_CTEST=${CMAKE_CTEST_COMMAND}")
  # slices cut by an earlier run's case times (run --slice-costs, /inputs wall_s)
  mlab_py_test(test_slice_costs test_slice_costs.py LABELS cpu)
endif()
# ~10 s; RUN_SERIAL: it starts daemons that take the machine's CPUs as a node
add_test(NAME test_slurm COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/test_slurm.sh $<TARGET_FILE:mlabench> ${CMAKE_SOURCE_DIR})
set_tests_properties(test_slurm PROPERTIES LABELS slurm SKIP_RETURN_CODE 77 RUN_SERIAL TRUE TIMEOUT 180)
