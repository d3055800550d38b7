# Device helpers checked on the GPU against the CPU reference, one helper at a
# time, so a wrong helper is named, not just seen as a failed decode (NVIDIA
# builds; exit 77 without an NVIDIA GPU). gpu_wgmma_maps: wgmma.cmake;
# gpu_tma_layout: the a8w8 decode's swizzled stages (sm_90 builds).
if(MLAB_GPU STREQUAL "cuda")
  # one GPU unit test: NAME (NAME.cu), then compile definitions, if any
  function(mlab_gpu_unit name)
    add_executable(${name} ${name}.cu)
    target_include_directories(${name} PRIVATE ${CMAKE_SOURCE_DIR})
    target_link_libraries(${name} PRIVATE mlab_core)
    target_compile_definitions(${name} PRIVATE ${ARGN})
    set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CUDA)
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77)
  endfunction()
  mlab_gpu_unit(gpu_q_quant)
  # the a8w8 stage loader's layout by each path (tensor copies, cp.async): sm_90 builds
  string(REGEX MATCH "^[0-9]+" _mlab_tma_cc "${MLAB_CUDA_ARCH}")
  if(_mlab_tma_cc GREATER_EQUAL 90)
    mlab_gpu_unit(gpu_tma_layout MLAB_CLUSTER_BUILD)
  endif()
endif()
