# results.cmake: results files, export, compare, plot and report
# (harness/results*.c, stats.c, env.c, results_cli.c, results_tidy.c, results_gnuplot.c, compare_out.c, report_rows.c, history_index.c, cmd_{export,compare,plot,report,history,merge}.c, tensor_hash.c, plots/*.gp). Label cpu.
mlab_c_test(test_results_stats test_results_stats.c LABELS cpu)
# the commit and dirty flag recorded follow the tree at every build (harness/cmake/git_info.cmake)
mlab_py_test(test_git_info test_git_info.py LABELS cpu)
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
# the three *_rows tests: label scale (times of a plain build; CI's sanitizers' pass leaves them out)
# a report of 80,000 rows within a bound the quadratic report (minutes) cannot meet
mlab_py_test(test_results_report_rows test_results_report_rows.py LABELS cpu scale ARGS $<TARGET_FILE:results_tool>)
# export and plot's data of 160,000 rows within a bound the quadratic tidy table (minutes) cannot meet
mlab_py_test(test_results_export_rows test_results_export_rows.py LABELS cpu scale ARGS $<TARGET_FILE:results_tool>)
# history's table of 3 runs, 200,000 rows, within a bound the quadratic table (minutes) cannot meet
mlab_py_test(test_results_history_rows test_results_history_rows.py LABELS cpu scale ARGS $<TARGET_FILE:results_tool>)
# a '/' in a variant's or case's name, a row many times in a run (files mlabench does not
# write, the reader takes): history (it crashed on both) and the other results commands answer
mlab_py_test(test_results_odd_rows test_results_odd_rows.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)

# harness/tools/trace_summary.py: the summary of a -DMLAB_TRACE phase trace
mlab_py_test(test_trace_summary test_trace_summary.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/tools/trace_summary.py)
# harness/tools/sanitize_summary.py: compute-sanitizer's logs, one line a site, the known
# findings marked; harness/gpu_sanitize.sh's refusals (no GPU here: skipped, exit 77)
mlab_py_test(test_sanitize_summary test_sanitize_summary.py LABELS cpu ARGS
             ${PROJECT_SOURCE_DIR}/harness/tools/sanitize_summary.py ${PROJECT_SOURCE_DIR}/harness/gpu_sanitize.sh)
# harness/tools/split_sweep.py: the split rule's picks against forced split counts; its fit through
# mlab_split_pick (the rule itself)
mlab_py_test(test_split_sweep test_split_sweep.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/tools/split_sweep.py
             $<TARGET_FILE:mlab_split_pick>)
# harness/tools/ab_table.py: an A/B's two pairs as one table (report READMEs, gpu_ab.sh)
mlab_py_test(test_ab_table test_ab_table.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/tools/ab_table.py)
mlab_py_test(test_kv_slopes test_kv_slopes.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/tools/kv_slopes.py)
# harness/gpu_ab.sh (a same-machine A/B of the working tree against a commit):
# its prepare step in a throwaway repository, its run step through stand-ins
mlab_py_test(test_gpu_ab test_gpu_ab.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/gpu_ab.sh)
# harness/gpu_bisect.sh (which commit made a kernel worse): its bisection on a
# scratch git repository, each tree "measured" by results_tool, judged by compare
mlab_py_test(test_gpu_bisect test_gpu_bisect.py LABELS cpu ARGS $<TARGET_FILE:results_tool>
             ${PROJECT_SOURCE_DIR}/harness/gpu_bisect.sh)
# harness/gpu_trace.sh (a trace build's phases of a few recorded cases, summed up):
# through a stand-in trace-built mlabench
mlab_py_test(test_gpu_trace test_gpu_trace.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/gpu_trace.sh)
# harness/tools/ncu_banks.py (bank conflicts per SASS instruction from ncu's source CSV):
mlab_py_test(test_ncu_banks test_ncu_banks.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/tools/ncu_banks.py)
# harness/peers/use_pack.sh (the prebuilt FlashInfer pack on PYTHONPATH, or why not):
mlab_py_test(test_use_pack test_use_pack.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/peers/use_pack.sh)
# harness/nv_sass.sh (the NVIDIA kernels' SASS a kernel, two builds compared):
# objects compiled by nvcc here, read by cuobjdump (skips without either)
mlab_py_test(test_nv_sass test_nv_sass.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/harness/nv_sass.sh)
mlab_py_test(test_device_queue test_device_queue.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR}/papers/device-queue.sh)
# the timing loop (harness/sampler.c) against a fake back end
mlab_c_test(test_sampler test_sampler.c LABELS cpu)
mlab_py_test(test_results_cli test_results_cli.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)
# an option with a value given twice is refused wherever it sits in a long
# option table (harness/args.c mlab_arg_once, results_cli.c mlab_cli_getopt)
mlab_c_test(test_arg_once test_arg_once.c LABELS cpu)
mlab_py_test(test_results_inputs test_results_inputs.py LABELS cpu)
mlab_py_test(test_results_v1 test_results_v1.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)
mlab_py_test(test_results_merge test_results_merge.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)
# run stopped by SIGTERM / SIGINT writes the rows it measured, says where it
# stopped (env.stopped: report, compare, merge) and exits 143 / 130
mlab_py_test(test_run_stop test_run_stop.py LABELS cpu)
mlab_py_test(test_results_history test_results_history.py LABELS cpu ARGS $<TARGET_FILE:results_tool>)
# the small scripts' promises with stand-in programs: quickstart.sh fails
# with its report, apt_need.sh installs a removed package, gpu_session.sh
# keeps its logs under a relative OUT, a rerun.sh takes a relative MLAB_BIN
mlab_py_test(test_scripts test_scripts.py LABELS cpu ARGS ${PROJECT_SOURCE_DIR})
