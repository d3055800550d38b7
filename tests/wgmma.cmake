# The wgmma kernel's operand and accumulator maps against the CPU (NVIDIA
# sm_90a builds only; exit 77 without an sm_90 GPU).
if(MLAB_GPU STREQUAL "cuda" AND MLAB_CUDA_ARCH MATCHES "90a")
  add_executable(gpu_wgmma_maps gpu_wgmma_maps.cu)
  target_include_directories(gpu_wgmma_maps PRIVATE ${CMAKE_SOURCE_DIR})
  # MLAB_CLUSTER_BUILD as the variants have it: the same tile layout (WG_TMAP)
  target_compile_definitions(gpu_wgmma_maps PRIVATE MLAB_SM90A MLAB_CLUSTER_BUILD)
  add_test(NAME gpu_wgmma_maps COMMAND gpu_wgmma_maps)
  set_tests_properties(gpu_wgmma_maps PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77)
endif()
