/* exitcodes.h: mlabench's documented exit codes (README.md, "Exit codes"). */
#ifndef MLAB_EXITCODES_H
#define MLAB_EXITCODES_H

enum {
    MLAB_EXIT_OK = 0,
    MLAB_EXIT_INTERNAL = 1,   /* a bug or an out-of-memory */
    MLAB_EXIT_USAGE = 2,      /* bad command line */
    MLAB_EXIT_BADINPUT = 3,   /* malformed case/results file, wrong shape or type, bad indptr, NaN */
    MLAB_EXIT_IO = 4,         /* cannot open, read, write or rename a file */
    MLAB_EXIT_ACCURACY = 5,   /* a variant failed validation against the reference */
    MLAB_EXIT_REGRESSION = 6, /* compare found a slowdown or an accuracy drift */
    MLAB_EXIT_DIFFERENT = 7,  /* compare refused: different GPU models (use --force) */
    MLAB_EXIT_NOPAIRS = 8,    /* compare: no (case, variant) of OLD is in NEW: nothing compared */
    MLAB_EXIT_INPUTS = 9,     /* compare: paired rows ran on different input tensors */
    MLAB_EXIT_MISMATCH = 10,  /* merge refused: files of different sweeps (commit, build) */
    MLAB_EXIT_HANG = 11,      /* run: a GPU wait passed MLAB_HANG_S (a kernel that never ends): the rows
                                 measured before it written, the run stopped there */
    MLAB_EXIT_NOGPU = 77      /* no usable GPU (CTest: skipped) */
};

#endif
