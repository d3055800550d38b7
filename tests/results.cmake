# results.cmake: results files, export, compare, plot and report
# (harness/results*.c, stats.c, env.c, cmd_results.c, plots/*.gp). Label cpu.
mlab_c_test(test_results_stats test_results_stats.c LABELS cpu)
mlab_c_test(test_results_h5 test_results_h5.c LABELS cpu)

# results_tool: writes synthetic results files (fixed-seed samples) and checks
# that a file reads back; driven by the Python tests below.
add_executable(results_tool results_tool.c)
target_link_libraries(results_tool PRIVATE mlab_core ${MLAB_GPU_LIB} mlab_core)
if(MLAB_GPU STREQUAL "cuda")
  set_target_properties(results_tool PROPERTIES LINKER_LANGUAGE CUDA)
endif()

mlab_py_test(test_results_compare test_results_compare.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)
mlab_py_test(test_results_atomic test_results_atomic.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)
mlab_py_test(test_results_export test_results_export.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)
mlab_py_test(test_results_plot test_results_plot.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)
mlab_py_test(test_results_report test_results_report.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)

# harness/trace_summary.py: the summary of a -DMLAB_TRACE phase trace
mlab_py_test(test_trace_summary test_trace_summary.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/trace_summary.py)
