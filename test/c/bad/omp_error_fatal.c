// EXPECT-ERROR: 6:1: omp error: this configuration is not supported
// An error directive at compilation (the default) of severity fatal (the default) stops
// the compile with its message.

int main(void) {
#pragma omp error message("this configuration is not supported")
  return 0;
}
