# amd_isa.cmake: `cmake --build BUILD --target isa` writes each AMD kernel's
# ISA listing (gfx942, gfx950) and the one-line summaries into BUILD/isa
# (harness/amd_isa.sh). In a -DMLAB_GPU=hip build it uses that build's hipcc,
# else the PyPI clang 22 toolchain (harness/amd_toolchain.sh).
# `--target isa-update` rewrites the committed variants/isa/isa-summary.txt.
set(_isa_env)
if(MLAB_GPU STREQUAL "hip" AND HIPCC_EXECUTABLE)
  set(_isa_env ${CMAKE_COMMAND} -E env MLAB_AMD_HIPCC=${HIPCC_EXECUTABLE})
endif()
add_custom_target(isa COMMAND ${_isa_env} bash ${CMAKE_SOURCE_DIR}/harness/amd_isa.sh --out ${CMAKE_BINARY_DIR}/isa
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} USES_TERMINAL VERBATIM)
add_custom_target(isa-update COMMAND bash ${CMAKE_SOURCE_DIR}/harness/amd_isa.sh --update --out ${CMAKE_BINARY_DIR}/isa
                  WORKING_DIRECTORY ${CMAKE_SOURCE_DIR} USES_TERMINAL VERBATIM)
