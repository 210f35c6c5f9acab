/* Chase-Lev work-stealing deque with the C11 memory orderings of Le, Pop, Cohen and Zappa
   Nardelli, "Correct and Efficient Work-Stealing for Weak Memory Models" (PPoPP 2013).
   The array grows by doubling; an outgrown array stays allocated (a thief may still be reading
   it) and is freed with the deque. */
#include "internal.h"

#include <stdlib.h>

static rt_array *array_new(int64_t size, rt_array *retired) {
  rt_array *a = malloc(sizeof *a + (size_t)size * sizeof(a->slots[0]));
  if (!a)
    rt_fatal_plain("out of memory for a ready queue of %lld tasks", (long long)size);
  a->size = size;
  a->retired = retired;
  return a;
}

void rt_deque_init(rt_deque *dq, int64_t size) {
  atomic_init(&dq->top, 0);
  atomic_init(&dq->bottom, 0);
  atomic_init(&dq->array, array_new(size, NULL));
}

void rt_deque_destroy(rt_deque *dq) {
  rt_array *a = atomic_load_explicit(&dq->array, memory_order_relaxed);
  while (a) {
    rt_array *older = a->retired;
    free(a);
    a = older;
  }
  atomic_store_explicit(&dq->array, NULL, memory_order_relaxed);
}

static rt_array *grow(rt_deque *dq, rt_array *a, int64_t top, int64_t bottom) {
  rt_array *bigger = array_new(a->size * 2, a);
  for (int64_t i = top; i < bottom; i++)
    atomic_store_explicit(&bigger->slots[i & (bigger->size - 1)],
                          atomic_load_explicit(&a->slots[i & (a->size - 1)], memory_order_relaxed),
                          memory_order_relaxed);
  atomic_store_explicit(&dq->array, bigger, memory_order_release);
  return bigger;
}

void rt_deque_push(rt_deque *dq, rt_edt *t) {
  int64_t b = atomic_load_explicit(&dq->bottom, memory_order_relaxed);
  int64_t top = atomic_load_explicit(&dq->top, memory_order_acquire);
  rt_array *a = atomic_load_explicit(&dq->array, memory_order_relaxed);
  if (b - top > a->size - 1)
    a = grow(dq, a, top, b);
  atomic_store_explicit(&a->slots[b & (a->size - 1)], t, memory_order_relaxed);
  /* a release store rather than the paper's release fence + relaxed store: the same on x86
     and visible to ThreadSanitizer, which does not model fences */
  atomic_store_explicit(&dq->bottom, b + 1, memory_order_release);
}

rt_edt *rt_deque_take(rt_deque *dq) {
  /* Empty stays empty until the owner (the caller) pushes: thieves only raise top. Saying so
     without the store and fence below keeps an idle owner from writing its line. */
  if (atomic_load_explicit(&dq->bottom, memory_order_relaxed) <=
      atomic_load_explicit(&dq->top, memory_order_relaxed))
    return NULL;
  int64_t b = atomic_load_explicit(&dq->bottom, memory_order_relaxed) - 1;
  rt_array *a = atomic_load_explicit(&dq->array, memory_order_relaxed);
  atomic_store_explicit(&dq->bottom, b, memory_order_relaxed);
  atomic_thread_fence(memory_order_seq_cst);
  int64_t top = atomic_load_explicit(&dq->top, memory_order_relaxed);
  if (top > b) { /* empty */
    atomic_store_explicit(&dq->bottom, b + 1, memory_order_relaxed);
    return NULL;
  }
  rt_edt *t = atomic_load_explicit(&a->slots[b & (a->size - 1)], memory_order_relaxed);
  if (top == b) { /* the last one: race the thieves for it */
    if (!atomic_compare_exchange_strong_explicit(&dq->top, &top, top + 1, memory_order_seq_cst,
                                                 memory_order_relaxed))
      t = NULL;
    atomic_store_explicit(&dq->bottom, b + 1, memory_order_relaxed);
  }
  return t;
}

rt_edt *rt_deque_steal(rt_deque *dq) {
  int64_t top = atomic_load_explicit(&dq->top, memory_order_acquire);
  atomic_thread_fence(memory_order_seq_cst);
  int64_t b = atomic_load_explicit(&dq->bottom, memory_order_acquire);
  if (top >= b)
    return NULL;
  /* consume ordering, strengthened to acquire as compilers do anyway */
  rt_array *a = atomic_load_explicit(&dq->array, memory_order_acquire);
  rt_edt *t = atomic_load_explicit(&a->slots[top & (a->size - 1)], memory_order_relaxed);
  if (!atomic_compare_exchange_strong_explicit(&dq->top, &top, top + 1, memory_order_seq_cst,
                                               memory_order_relaxed))
    return RT_STEAL_ABORT;
  return t;
}
