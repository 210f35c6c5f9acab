/* A detached task (detach(event)): the task that depends on it runs after the task that
   fulfills its event, which was created between them. */
#include <stdio.h>
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#else
typedef int omp_event_handle_t;
static void omp_fulfill_event(omp_event_handle_t event) { (void)event; }
#endif

static int fulfill(omp_event_handle_t event) {
  omp_fulfill_event(event);
  return 1;
}

int main(void) {
  int x = 0, y = 0, seen_x = -1, seen_y = -1, rounds = 0;
  for (int r = 0; r < 3; r++) {
    omp_event_handle_t done;
#pragma omp parallel
#pragma omp single
    {
#pragma omp task depend(out: y) detach(done) shared(y)
      y++;
#pragma omp task shared(x)
      {
        x = x + 1;
        fulfill(done);
      }
#pragma omp task depend(inout: y) shared(x, y, seen_x, seen_y)
      {
        seen_x = x;
        seen_y = y;
      }
    }
    rounds += seen_x == r + 1 && seen_y == r + 1;
  }
  if (rounds != 3) {
    printf("FAIL omp_task_detach %d %d %d\n", rounds, seen_x, seen_y);
    return 1;
  }
  printf("ok omp_task_detach %d %d\n", seen_x, seen_y);
  return 0;
}
