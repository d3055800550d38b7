# peers.cmake: peers, external implementations run by mlabench run --peers
# (harness/peer.c, harness/peers/). Label cpu unless said.
#   test_peer_contract  the competition layout built from a case file, byte for
#                       byte (numpy + h5py only), the AMD-only markers, and
#                       --peers' usage errors; runs without torch
#   test_peer_loader    the submission loader through peer_server.py on the
#                       CPU: tensors byte for byte, and its error paths
#                       (no custom_kernel, an exception, wrong shape or dtype,
#                       NaN output, aiter import, AMD-only assembly); needs
#                       torch (skipped without)
#   test_peer_run       mlabench run --peers end to end on the CPU
#                       (MLAB_PEER_DEVICE=cpu): rows, validation, exit 5,
#                       skipped peers; needs torch (skipped without)
#   test_peer_hostile   submissions that misbehave (children left, a crash
#                       beside a forked copy, inputs changed in place, a
#                       latin-1 source, a hanging import, duplicate rows,
#                       mlabench stopped by SIGTERM); needs torch
#   test_peer_gpu       (gpu) every peer on awkward cases, validated and timed
#                       on the GPU; skipped without a GPU or torch with CUDA
if(Python3_Interpreter_FOUND)
  mlab_py_test(test_peer_contract test_peer_contract.py LABELS cpu)
  mlab_py_test(test_peer_loader test_peer_loader.py LABELS cpu)
  mlab_py_test(test_peer_run test_peer_run.py LABELS cpu)
  mlab_py_test(test_peer_hostile test_peer_hostile.py LABELS cpu)
  mlab_py_test(test_peer_gpu test_peer_gpu.py LABELS gpu)
  set_tests_properties(test_peer_gpu PROPERTIES TIMEOUT 2400)
endif()
