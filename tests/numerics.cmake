# Number formats (reference/numerics.c): bf16, fp8 e4m3fn/e4m3fnuz, e2m1,
# e8m0, the per-tensor fp8 and the MXFP4 quantizers.
#   test_numerics_c     hand-checked values, C only
#   numerics_tables     numerics_dump writes inputs/outputs as binary tables
#   test_numerics       tests/test_numerics.py checks every table bit by bit
#                       against numpy + ml_dtypes (skips without them)
mlab_c_test(test_numerics_c test_numerics_c.c LABELS cpu)

add_executable(numerics_dump numerics_dump.c)
target_link_libraries(numerics_dump PRIVATE mlab_core)
set(MLAB_NUMERICS_TABLES ${CMAKE_CURRENT_BINARY_DIR}/numerics_tables)
add_test(NAME numerics_tables COMMAND numerics_dump ${MLAB_NUMERICS_TABLES})
set_tests_properties(numerics_tables PROPERTIES LABELS cpu FIXTURES_SETUP numerics_tables)

if(Python3_Interpreter_FOUND)
  mlab_py_test(test_numerics test_numerics.py LABELS cpu ARGS ${MLAB_NUMERICS_TABLES})
  set_tests_properties(test_numerics PROPERTIES FIXTURES_REQUIRED numerics_tables)
endif()
