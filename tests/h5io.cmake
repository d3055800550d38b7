# h5io.cmake: case files (harness/case_*.c): C round trip and SHA-256,
# h5py interoperability both ways, and the reader's refusals of bad files.
mlab_c_test(test_h5io test_h5io.c LABELS cpu)

# h5io_tool: write-sample / read (digest) / sha256, driven by the Python tests.
add_executable(h5io_tool h5io_tool.c)
target_link_libraries(h5io_tool PRIVATE mlab_core ${MLAB_GPU_LIB} mlab_core)
if(MLAB_GPU STREQUAL "cuda")
  set_target_properties(h5io_tool PROPERTIES LINKER_LANGUAGE CUDA)
endif()

mlab_py_test(test_h5py test_h5py.py LABELS cpu ARGS $<TARGET_FILE:h5io_tool>)
mlab_py_test(test_badinput test_badinput.py LABELS cpu ARGS $<TARGET_FILE:h5io_tool>)
