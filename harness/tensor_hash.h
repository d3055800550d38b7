/* tensor_hash.h: SHA-256 of each tensor of a case in memory (OpenSSL's
 * libcrypto), recorded in a results file's /inputs so that `compare` can
 * tell whether two runs read the same inputs: equal tensors hash equal,
 * whether they came from a file, from another file with the same tensors,
 * or from the generator. */
#ifndef MLAB_TENSOR_HASH_H
#define MLAB_TENSOR_HASH_H

#include <stddef.h>

#include "../reference/case.h" /* mlab_case */
#include "results.h"           /* mlab_input_file */

/* Fill in->q_sha256 ... in->kv_indptr_sha256 with the hex SHA-256 of the
 * bytes of q, kv_bf16, kv_fp8 followed by kv_fp8_scale (4 bytes, IEEE
 * binary32 little-endian), kv_fp4, kv_e8m0, qo_indptr and kv_indptr (int32
 * little-endian), and in->sha256 with the SHA-256 of the seven hex digests
 * joined by '\n' (the case's content hash). The tensors are hashed in
 * parallel when OpenMP is there. Returns 0, or -1 with a reason. A build
 * without libcrypto (CMake warns) leaves every hash "" and returns 0. */
int mlab_tensor_hash_case(const mlab_case *c, mlab_input_file *in, char *why, size_t whylen);

#endif
