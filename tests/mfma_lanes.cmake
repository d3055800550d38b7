# The AMD MFMA lane maps (variants/mfma_lanes.h) against AMD's documented
# layouts, on the CPU (C++ host build).
include(CheckLanguage)
check_language(CXX)
if(CMAKE_CXX_COMPILER)
  enable_language(CXX)
  add_executable(test_mfma_lanes test_mfma_lanes.cpp)
  target_include_directories(test_mfma_lanes PRIVATE ${CMAKE_SOURCE_DIR})
  add_test(NAME test_mfma_lanes COMMAND test_mfma_lanes)
  set_tests_properties(test_mfma_lanes PROPERTIES LABELS "cpu")
endif()
