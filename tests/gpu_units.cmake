# Device helpers checked on the GPU against the CPU reference, one helper at a
# time, so a wrong helper is named, not just seen as a failed decode (NVIDIA
# builds; exit 77 without an NVIDIA GPU). gpu_wgmma_maps: wgmma.cmake;
# gpu_tma_layout: the a8w8 decode's swizzled stages (sm_90 builds).
if(MLAB_GPU STREQUAL "cuda")
  add_executable(gpu_q_quant gpu_q_quant.cu)
  target_include_directories(gpu_q_quant PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(gpu_q_quant PRIVATE mlab_core)
  set_target_properties(gpu_q_quant PROPERTIES LINKER_LANGUAGE CUDA)
  add_test(NAME gpu_q_quant COMMAND gpu_q_quant)
  set_tests_properties(gpu_q_quant PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77)
  # the a8w8 stage loader's layout by each path (tensor copies, cp.async): sm_90 builds
  string(REGEX MATCH "^[0-9]+" _mlab_tma_cc "${MLAB_CUDA_ARCH}")
  if(_mlab_tma_cc GREATER_EQUAL 90)
    add_executable(gpu_tma_layout gpu_tma_layout.cu)
    target_include_directories(gpu_tma_layout PRIVATE ${CMAKE_SOURCE_DIR})
    target_compile_definitions(gpu_tma_layout PRIVATE MLAB_CLUSTER_BUILD)
    set_target_properties(gpu_tma_layout PROPERTIES LINKER_LANGUAGE CUDA)
    add_test(NAME gpu_tma_layout COMMAND gpu_tma_layout)
    set_tests_properties(gpu_tma_layout PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77)
  endif()
endif()
