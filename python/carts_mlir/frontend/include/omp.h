/*
 * omp.h as the carts front end sees it: the OpenMP 5.2 host routines and their types.
 *
 * The front end parses C with libclang, which cannot digest gcc's omp.h (it uses
 * gcc-only attribute syntax). Inside a parallel region the compiler rewrites the
 * routines that describe the team (thread number, team size, levels) into runtime
 * queries; everywhere else the calls resolve to definitions for the initial thread:
 * the sequential ones in carts_mlir/openmp_routines.py, the rest in the native runtime
 * (runtime/src/omp.c). There is no device: the host is the initial device, and the
 * device routines say so.
 */
#ifndef CARTS_FRONTEND_OMP_H
#define CARTS_FRONTEND_OMP_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Locks: a lock is a word of the program's memory; a nest lock two (its count and its
   owner), the runtime's nest_word. */
typedef long omp_lock_t;
typedef struct omp_nest_lock_t {
  long _count;
  long _owner;
} omp_nest_lock_t;

typedef enum omp_sched_t {
  omp_sched_static = 1,
  omp_sched_dynamic = 2,
  omp_sched_guided = 3,
  omp_sched_auto = 4,
  omp_sched_monotonic = 0x80000000u
} omp_sched_t;

typedef enum omp_proc_bind_t {
  omp_proc_bind_false = 0,
  omp_proc_bind_true = 1,
  omp_proc_bind_primary = 2,
  omp_proc_bind_master = 2,
  omp_proc_bind_close = 3,
  omp_proc_bind_spread = 4
} omp_proc_bind_t;

typedef enum omp_sync_hint_t {
  omp_sync_hint_none = 0,
  omp_lock_hint_none = 0,
  omp_sync_hint_uncontended = 1,
  omp_lock_hint_uncontended = 1,
  omp_sync_hint_contended = 2,
  omp_lock_hint_contended = 2,
  omp_sync_hint_nonspeculative = 4,
  omp_lock_hint_nonspeculative = 4,
  omp_sync_hint_speculative = 8,
  omp_lock_hint_speculative = 8
} omp_sync_hint_t;
typedef omp_sync_hint_t omp_lock_hint_t;

typedef enum omp_pause_resource_t { omp_pause_soft = 1, omp_pause_hard = 2 } omp_pause_resource_t;

typedef enum omp_control_tool_t {
  omp_control_tool_start = 1,
  omp_control_tool_pause = 2,
  omp_control_tool_flush = 3,
  omp_control_tool_end = 4
} omp_control_tool_t;

typedef enum omp_control_tool_result_t {
  omp_control_tool_notool = -2,
  omp_control_tool_nocallback = -1,
  omp_control_tool_success = 0,
  omp_control_tool_ignored = 1
} omp_control_tool_result_t;

/* Memory: every allocator and memory space is the C library's heap. */
typedef uintptr_t omp_uintptr_t;
typedef uintptr_t omp_allocator_handle_t;
typedef uintptr_t omp_memspace_handle_t;
#define omp_null_allocator ((omp_allocator_handle_t)0)
#define omp_default_mem_alloc ((omp_allocator_handle_t)1)
#define omp_large_cap_mem_alloc ((omp_allocator_handle_t)2)
#define omp_const_mem_alloc ((omp_allocator_handle_t)3)
#define omp_high_bw_mem_alloc ((omp_allocator_handle_t)4)
#define omp_low_lat_mem_alloc ((omp_allocator_handle_t)5)
#define omp_cgroup_mem_alloc ((omp_allocator_handle_t)6)
#define omp_pteam_mem_alloc ((omp_allocator_handle_t)7)
#define omp_thread_mem_alloc ((omp_allocator_handle_t)8)
#define omp_default_mem_space ((omp_memspace_handle_t)0)
#define omp_large_cap_mem_space ((omp_memspace_handle_t)1)
#define omp_const_mem_space ((omp_memspace_handle_t)2)
#define omp_high_bw_mem_space ((omp_memspace_handle_t)3)
#define omp_low_lat_mem_space ((omp_memspace_handle_t)4)

typedef enum omp_alloctrait_key_t {
  omp_atk_sync_hint = 1,
  omp_atk_alignment = 2,
  omp_atk_access = 3,
  omp_atk_pool_size = 4,
  omp_atk_fallback = 5,
  omp_atk_fb_data = 6,
  omp_atk_pinned = 7,
  omp_atk_partition = 8
} omp_alloctrait_key_t;

typedef enum omp_alloctrait_value_t {
  omp_atv_false = 0,
  omp_atv_true = 1,
  omp_atv_contended = 3,
  omp_atv_uncontended = 4,
  omp_atv_serialized = 5,
  omp_atv_sequential = 5,
  omp_atv_private = 6,
  omp_atv_all = 7,
  omp_atv_thread = 8,
  omp_atv_pteam = 9,
  omp_atv_cgroup = 10,
  omp_atv_default_mem_fb = 11,
  omp_atv_null_fb = 12,
  omp_atv_abort_fb = 13,
  omp_atv_allocator_fb = 14,
  omp_atv_environment = 15,
  omp_atv_nearest = 16,
  omp_atv_blocked = 17,
  omp_atv_interleaved = 18
} omp_alloctrait_value_t;
#define omp_atv_default ((omp_uintptr_t)-1)

/* The key is an omp_alloctrait_key_t, held in a word as the value is (one field type). */
typedef struct omp_alloctrait_t {
  omp_uintptr_t key;
  omp_uintptr_t value;
} omp_alloctrait_t;

typedef uintptr_t omp_event_handle_t;
/* A depend object: what `#pragma omp depobj` sets is tracked by the compiler, so the variable
   itself is never read or written; it only has to exist. */
typedef uintptr_t omp_depend_t;

/* Teams of threads */
void omp_set_num_threads(int num_threads);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int dynamic_threads);
int omp_get_dynamic(void);
int omp_get_cancellation(void);
void omp_set_nested(int nested);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t kind, int chunk_size);
void omp_get_schedule(omp_sched_t *kind, int *chunk_size);
int omp_get_thread_limit(void);
int omp_get_supported_active_levels(void);
void omp_set_max_active_levels(int max_levels);
int omp_get_max_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int level);
int omp_get_team_size(int level);
int omp_get_active_level(void);

/* Affinity */
omp_proc_bind_t omp_get_proc_bind(void);
int omp_get_num_places(void);
int omp_get_place_num_procs(int place_num);
void omp_get_place_proc_ids(int place_num, int *ids);
int omp_get_place_num(void);
int omp_get_partition_num_places(void);
void omp_get_partition_place_nums(int *place_nums);
void omp_set_affinity_format(const char *format);
size_t omp_get_affinity_format(char *buffer, size_t size);
void omp_display_affinity(const char *format);
size_t omp_capture_affinity(char *buffer, size_t size, const char *format);

/* Teams (one league of one team on the host) */
int omp_get_num_teams(void);
int omp_get_team_num(void);
void omp_set_num_teams(int num_teams);
int omp_get_max_teams(void);
void omp_set_teams_thread_limit(int thread_limit);
int omp_get_teams_thread_limit(void);

/* Tasks */
int omp_get_max_task_priority(void);
int omp_in_explicit_task(void);
int omp_in_final(void);
void omp_fulfill_event(omp_event_handle_t event);

/* Resources */
int omp_pause_resource(omp_pause_resource_t kind, int device_num);
int omp_pause_resource_all(omp_pause_resource_t kind);

/* Devices: none but the host */
void omp_set_default_device(int device_num);
int omp_get_default_device(void);
int omp_get_num_devices(void);
int omp_get_device_num(void);
int omp_is_initial_device(void);
int omp_get_initial_device(void);

/* Locks */
void omp_init_lock(omp_lock_t *lock);
void omp_init_lock_with_hint(omp_lock_t *lock, omp_sync_hint_t hint);
void omp_destroy_lock(omp_lock_t *lock);
void omp_set_lock(omp_lock_t *lock);
void omp_unset_lock(omp_lock_t *lock);
int omp_test_lock(omp_lock_t *lock);
void omp_init_nest_lock(omp_nest_lock_t *lock);
void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_sync_hint_t hint);
void omp_destroy_nest_lock(omp_nest_lock_t *lock);
void omp_set_nest_lock(omp_nest_lock_t *lock);
void omp_unset_nest_lock(omp_nest_lock_t *lock);
int omp_test_nest_lock(omp_nest_lock_t *lock);

/* Timing */
double omp_get_wtime(void);
double omp_get_wtick(void);

/* Memory */
omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t memspace, int ntraits,
                                          const omp_alloctrait_t *traits);
void omp_destroy_allocator(omp_allocator_handle_t allocator);
void omp_set_default_allocator(omp_allocator_handle_t allocator);
omp_allocator_handle_t omp_get_default_allocator(void);
void *omp_alloc(size_t size, omp_allocator_handle_t allocator);
void *omp_aligned_alloc(size_t alignment, size_t size, omp_allocator_handle_t allocator);
void *omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t allocator);
void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size,
                         omp_allocator_handle_t allocator);
void *omp_realloc(void *ptr, size_t size, omp_allocator_handle_t allocator,
                  omp_allocator_handle_t free_allocator);
void omp_free(void *ptr, omp_allocator_handle_t allocator);

/* Tools and environment */
int omp_control_tool(int command, int modifier, void *arg);
void omp_display_env(int verbose);

#ifdef __cplusplus
}
#endif

#endif /* CARTS_FRONTEND_OMP_H */
