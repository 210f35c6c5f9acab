/* A test suite's file-name macro: the part of __FILE__ after its last '/', through
   strrchr and pointer arithmetic on the string it returns. */
#include <stdio.h>
#include <string.h>

#define FILE_NAME (strrchr(__FILE__, '/') ? strrchr(__FILE__, '/') + 1 : __FILE__)

int main(void) {
  const char *name = FILE_NAME;
  const char *tail = name + strlen(name) - 2; /* ".c" */
  if (strcmp(name, "idiom_file_name.c") != 0 || strcmp(tail, ".c") != 0) {
    printf("FAIL idiom_file_name %s\n", name);
    return 1;
  }
  printf("ok idiom_file_name %s\n", FILE_NAME);
  return 0;
}
