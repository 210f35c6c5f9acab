// EXPECT-ERROR: 3:10: file not found
// A local include that does not exist.
#include "does_not_exist.h"

int main(void) { return 0; }
