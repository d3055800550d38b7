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

# fp8_xcd's block placement over XCDs (variants/xcd_map.h), plain C.
add_executable(test_xcd_map test_xcd_map.c)
target_include_directories(test_xcd_map PRIVATE ${CMAKE_SOURCE_DIR})
add_test(NAME test_xcd_map COMMAND test_xcd_map)
set_tests_properties(test_xcd_map PROPERTIES LABELS "cpu")

# gfx950's scaled MFMA as mxfp4_mfma_scale feeds it (variants/mfma_scale_lanes.h),
# modelled from AMD's documented layouts, C++ host build with the reference quantizers.
if(CMAKE_CXX_COMPILER)
  add_executable(test_mfma_scale_lanes test_mfma_scale_lanes.cpp)
  target_include_directories(test_mfma_scale_lanes PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(test_mfma_scale_lanes PRIVATE mlab_core)
  add_test(NAME test_mfma_scale_lanes COMMAND test_mfma_scale_lanes)
  set_tests_properties(test_mfma_scale_lanes PROPERTIES LABELS "cpu")
endif()

# gfx950's LDS DMA staging and transposing V reads (variants/lds_lanes.h)
# against emulations of the two instructions, plain C.
add_executable(test_lds_lanes test_lds_lanes.c)
target_include_directories(test_lds_lanes PRIVATE ${CMAKE_SOURCE_DIR})
add_test(NAME test_lds_lanes COMMAND test_lds_lanes)
set_tests_properties(test_lds_lanes PROPERTIES LABELS "cpu")

# The MXFP4 tile passes' lane maps and the mma.sync S rows (variants/smem_lanes.h)
# against NVIDIA's shared-memory bank model, plain C.
add_executable(test_smem_lanes test_smem_lanes.c)
target_include_directories(test_smem_lanes PRIVATE ${CMAKE_SOURCE_DIR})
add_test(NAME test_smem_lanes COMMAND test_smem_lanes)
set_tests_properties(test_smem_lanes PROPERTIES LABELS "cpu")
# The MXFP4 wgmma decodes' stage protocol (mbarrier parity waits, empty named
# barriers, the raw ring) under random schedules: main's rings, and the shared
# odd ring of v63's mx_ring.patch (dropped as slower, v64), whose first form
# hung on a GPU and is caught here (perf-notes v63).
mlab_py_test(test_mx_ring_model test_mx_ring_model.py LABELS cpu)
