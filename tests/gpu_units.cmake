# Device helpers checked on the GPU against the CPU reference, one helper at a
# time, so a wrong helper is named, not just seen as a failed decode (NVIDIA
# builds; exit 77 without an NVIDIA GPU). gpu_wgmma_maps: wgmma.cmake.
if(MLAB_GPU STREQUAL "cuda")
  add_executable(gpu_q_quant gpu_q_quant.cu)
  target_include_directories(gpu_q_quant PRIVATE ${CMAKE_SOURCE_DIR})
  target_link_libraries(gpu_q_quant PRIVATE mlab_core)
  set_target_properties(gpu_q_quant PROPERTIES LINKER_LANGUAGE CUDA)
  add_test(NAME gpu_q_quant COMMAND gpu_q_quant)
  set_tests_properties(gpu_q_quant PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77)
endif()
