/* Critical sections: one mutex per id, created on first use and kept for the process. The
   registry is a short list under one lock: a program names few sections, and a task looks
   its lock up once per entry. */
#include "internal.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct rt_critical {
  uint64_t id;
  pthread_mutex_t lock;
  struct rt_critical *next;
} rt_critical;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static rt_critical *_Atomic registry;

static rt_critical *critical_of(uint64_t id) {
  for (rt_critical *c = atomic_load_explicit(&registry, memory_order_acquire); c; c = c->next)
    if (c->id == id)
      return c;
  pthread_mutex_lock(&registry_lock);
  rt_critical *c = atomic_load_explicit(&registry, memory_order_relaxed);
  for (; c; c = c->next)
    if (c->id == id)
      break;
  if (!c) {
    c = malloc(sizeof *c);
    if (!c)
      rt_fatal_plain("out of memory for a critical section's lock");
    c->id = id;
    pthread_mutex_init(&c->lock, NULL);
    c->next = atomic_load_explicit(&registry, memory_order_relaxed);
    atomic_store_explicit(&registry, c, memory_order_release);
  }
  pthread_mutex_unlock(&registry_lock);
  return c;
}

void artsCriticalEnter(uint64_t id) { pthread_mutex_lock(&critical_of(id)->lock); }

void artsCriticalExit(uint64_t id) { pthread_mutex_unlock(&critical_of(id)->lock); }
