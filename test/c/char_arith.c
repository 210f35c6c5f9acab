// char arithmetic and character literals: letter offsets, digit conversion,
// escape sequences, a Caesar shift with modulo, comparing chars.
#include <stdio.h>

int main(void) {
  int fails = 0;
  char word[6] = {'h', 'e', 'l', 'l', 'o', '\0'};
  char shifted[6];
  for (int i = 0; i < 5; i++)
    shifted[i] = (char)('a' + (word[i] - 'a' + 3) % 26);
  shifted[5] = '\0';
  if (shifted[0] != 'k' || shifted[1] != 'h' || shifted[4] != 'r') fails++;
  int digits = 0;
  char num[4] = {'4', '0', '9', '6'};
  for (int i = 0; i < 4; i++)
    digits = digits * 10 + (num[i] - '0');
  if (digits != 4096) fails++;
  if ('\n' != 10 || '\t' != 9 || '\0' != 0 || '\\' != 92 || '\'' != 39) fails++;
  int upper = 0;
  char text[8] = {'C', 'a', 'R', 't', 'S', '1', '!', 'z'};
  for (int i = 0; i < 8; i++)
    if (text[i] >= 'A' && text[i] <= 'Z')
      upper++;
  if (upper != 3) fails++;
  char lower[8];
  for (int i = 0; i < 8; i++)
    lower[i] = (text[i] >= 'A' && text[i] <= 'Z') ? (char)(text[i] + ('a' - 'A')) : text[i];
  if (lower[0] != 'c' || lower[2] != 'r' || lower[5] != '1') fails++;
  if (fails) {
    printf("FAIL char_arith %d\n", fails);
    return 1;
  }
  printf("ok char_arith %c%c%c%c%c %d %c%c\n", shifted[0], shifted[1], shifted[2],
         shifted[3], shifted[4], digits, lower[0], lower[4]);
  return 0;
}
