# The AMD kernels' ISA, compiled here for gfx942 and gfx950 by the PyPI clang 22
# toolchain (harness/amd_toolchain.sh) and summarized by harness/amd_isa.sh.
# Skipped (77) when the toolchain is not set up; CI sets it up and exports
# MLAB_REQUIRE_AMD_ISA=1, so there a missing toolchain fails.
add_test(NAME amd_isa_summary_matches_committed
         COMMAND bash ${CMAKE_SOURCE_DIR}/harness/amd_isa.sh --check --out ${CMAKE_BINARY_DIR}/isa-check)
set_tests_properties(amd_isa_summary_matches_committed PROPERTIES LABELS "cpu" SKIP_RETURN_CODE 77
                     TIMEOUT 600 FIXTURES_SETUP amd_isa_listings)
# the check can fail: a summary that differs by one register, a listing that spills
add_test(NAME amd_isa_check_refuses_changed_summary_and_scratch
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/amd_isa_selftest.sh ${CMAKE_BINARY_DIR}/isa-check)
set_tests_properties(amd_isa_check_refuses_changed_summary_and_scratch PROPERTIES LABELS "cpu"
                     SKIP_RETURN_CODE 77 FIXTURES_REQUIRED amd_isa_listings)
