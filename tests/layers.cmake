# One-way layers (harness -> variants -> reference): the include graph has no
# upward arrow besides the known ones listed (and printed) in
# harness/tools/include_graph.py, which may only shrink.
if(Python3_EXECUTABLE)
  add_test(NAME include_graph COMMAND ${Python3_EXECUTABLE}
           ${CMAKE_SOURCE_DIR}/harness/tools/include_graph.py --check ${CMAKE_SOURCE_DIR})
  set_tests_properties(include_graph PROPERTIES LABELS cpu)
endif()
# The combine's parameters held before its grid wait are the ones it reads
# (variants/mla_kernel.h combine_params_in; --self-test: the check can fail)
mlab_py_test(test_combine_params test_combine_params.py LABELS cpu ARGS --self-test)
