/* The OpenMP host routines called from the initial thread: what the standard fixes about
   their answers there (no device but the host, level 0, a team of one), the ICVs they set and
   read back, locks and nest locks, the allocators, timing and the affinity strings. */
#if defined(_OPENMP) || defined(__CARTS__)
#include <omp.h>
#endif
#include <stdio.h>

static int failures;

static void check(int ok, int what) {
  if (!ok) {
    printf("check %d failed\n", what);
    failures++;
  }
}

int main(void) {
#if defined(_OPENMP) || defined(__CARTS__)
  /* devices: the host is the initial device */
  check(omp_is_initial_device() == 1, 1);
  check(omp_get_num_devices() >= 0, 2);
  check(omp_get_initial_device() == omp_get_num_devices(), 3);
  check(omp_get_device_num() == omp_get_initial_device(), 4);
  omp_set_default_device(0);
  check(omp_get_default_device() == 0, 5);

  /* the initial thread: level 0, a team of one */
  check(omp_in_parallel() == 0, 6);
  check(omp_get_level() == 0, 7);
  check(omp_get_active_level() == 0, 8);
  check(omp_get_team_size(0) == 1, 9);
  check(omp_get_team_size(1) == -1, 10);
  check(omp_get_ancestor_thread_num(0) == 0, 11);
  check(omp_get_ancestor_thread_num(1) == -1, 12);
  check(omp_get_thread_num() == 0 && omp_get_num_threads() == 1, 13);
  check(omp_get_num_procs() >= 1 && omp_get_thread_limit() >= 1, 14);
  check(omp_get_max_threads() >= 1, 15);
  check(omp_in_final() == 0, 16);
  check(omp_get_num_teams() == 1 && omp_get_team_num() == 0, 17);
  check(omp_get_max_task_priority() >= 0, 18);
  check(omp_get_cancellation() == 0, 19);

  /* ICVs set and read back */
  omp_set_dynamic(0);
  check(omp_get_dynamic() == 0, 20);
  omp_sched_t kind;
  int chunk;
  omp_set_schedule(omp_sched_dynamic, 4);
  omp_get_schedule(&kind, &chunk);
  check(kind == omp_sched_dynamic && chunk == 4, 21);
  omp_set_schedule(omp_sched_static, 8);
  omp_get_schedule(&kind, &chunk);
  check(kind == omp_sched_static && chunk == 8, 22);
  check(omp_get_supported_active_levels() >= 1, 23);
  omp_set_max_active_levels(1);
  check(omp_get_max_active_levels() == 1, 24);
  check(omp_get_nested() == 0, 25);
  omp_set_num_teams(3);
  check(omp_get_max_teams() == 3, 26);
  omp_set_teams_thread_limit(2);
  check(omp_get_teams_thread_limit() == 2, 27);
  check(omp_get_proc_bind() == omp_proc_bind_false, 28);

  /* locks */
  omp_lock_t lock;
  omp_init_lock(&lock);
  check(omp_test_lock(&lock) == 1, 29);
  check(omp_test_lock(&lock) == 0, 30);
  omp_unset_lock(&lock);
  omp_set_lock(&lock);
  omp_unset_lock(&lock);
  omp_destroy_lock(&lock);
  omp_nest_lock_t nest;
  omp_init_nest_lock(&nest);
  omp_set_nest_lock(&nest);
  omp_set_nest_lock(&nest);
  check(omp_test_nest_lock(&nest) == 3, 31);
  omp_unset_nest_lock(&nest);
  omp_unset_nest_lock(&nest);
  omp_unset_nest_lock(&nest);
  check(omp_test_nest_lock(&nest) == 1, 32);
  omp_unset_nest_lock(&nest);
  omp_destroy_nest_lock(&nest);

  /* allocators: the memory is usable, calloc's is zero */
  double *a = (double *)omp_alloc(100 * sizeof(double), omp_default_mem_alloc);
  double *z = (double *)omp_calloc(100, sizeof(double), omp_default_mem_alloc);
  double *b = (double *)omp_aligned_alloc(64, 100 * sizeof(double), omp_large_cap_mem_alloc);
  double sum = 0;
  for (int i = 0; i < 100; i++) {
    a[i] = i;
    b[i] = 2 * i;
  }
  for (int i = 0; i < 100; i++)
    sum += a[i] + b[i] + z[i];
  check(sum == 3 * 4950.0, 33);
  omp_free(a, omp_default_mem_alloc);
  omp_free(z, omp_default_mem_alloc);
  omp_free(b, omp_large_cap_mem_alloc);
  omp_set_default_allocator(omp_default_mem_alloc);
  check(omp_get_default_allocator() == omp_default_mem_alloc, 34);

  /* timing */
  double t0 = omp_get_wtime();
  double t1 = omp_get_wtime();
  check(t1 >= t0 && omp_get_wtick() > 0, 35);

  /* affinity strings */
  omp_set_affinity_format("thread %n of %N");
  char buffer[64];
  size_t n = omp_get_affinity_format(buffer, 64);
  check(n == 15 && buffer[0] == 't' && buffer[14] == 'N', 36);
  n = omp_capture_affinity(buffer, 64, "%n/%N");
  check(n == 3 && buffer[0] == '0' && buffer[1] == '/' && buffer[2] == '1', 37);
  n = omp_capture_affinity(buffer, 64, "%.3{thread_num}");
  check(n == 3 && buffer[2] == '0' && buffer[0] == ' ', 38);

#endif
  if (failures) {
    printf("FAIL omp_host_routines %d\n", failures);
    return 1;
  }
  printf("ok omp_host_routines\n");
  return 0;
}
