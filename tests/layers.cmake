# One-way layers (harness -> variants -> reference): the include graph has no
# upward arrow besides the known ones listed (and printed) in
# harness/tools/include_graph.py, which may only shrink.
if(Python3_EXECUTABLE)
  add_test(NAME include_graph COMMAND ${Python3_EXECUTABLE}
           ${CMAKE_SOURCE_DIR}/harness/tools/include_graph.py --check ${CMAKE_SOURCE_DIR})
  set_tests_properties(include_graph PROPERTIES LABELS cpu)
endif()
