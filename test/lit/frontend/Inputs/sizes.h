/* Helper header for the frontend lit tests: size defaults and an inline helper. */
#ifndef SIZES_H
#define SIZES_H
#ifndef N
#define N 16
#endif
#define SQUARE(x) ((x) * (x))
static inline float scale(float v) { return v * 0.5f; }
#endif
