/* The deadlock report. On one node with no transport, work only appears when a task runs
   (or a foreign thread calls the API). When every worker has been idle for deadlockTimeout
   seconds and nothing was made ready meanwhile, the run can never end: rather than hang,
   say which tasks wait for what, then exit like any other misuse. */
#include "internal.h"

#include <stdio.h>
#include <unistd.h>

static void describe(rt_obj *o, void *arg) {
  rt_blocked *report = arg;
  uint32_t type = artsGuidGetType(o->guid);
  if (type == ARTS_EDT) {
    const rt_edt *t = (const rt_edt *)o;
    uint32_t slot = 0;
    while (slot < t->depc && t->slot_state[slot] != RT_SLOT_FREE)
      slot++;
    if (report->notes++ < RT_MAX_NOTES)
      fprintf(stderr,
              "carts runtime: note: task 0x%016llx never ran: slot %u was never satisfied (%u "
              "of its %u slots are not)\n",
              (unsigned long long)o->guid, slot, t->unclaimed, t->depc);
    report->tasks++;
    if (!report->first)
      report->first = o->guid;
  } else if (rt_is_db_type(type)) {
    rt_db_describe_blocked((rt_db *)o, report);
  }
}

void rt_report_deadlock(void) {
  static atomic_flag reporting = ATOMIC_FLAG_INIT;
  if (atomic_flag_test_and_set(&reporting))
    for (;;) /* another worker is reporting and will end the process */
      pause();
  fflush(stdout);
  rt_blocked report = {0};
  rt_table_visit(describe, &report);
  if (report.notes > RT_MAX_NOTES)
    fprintf(stderr, "carts runtime: note: ... and %u more\n", report.notes - RT_MAX_NOTES);
  rt_fatal(report.first,
           "deadlock: all %u workers have been idle for %gs and nothing can run (%u tasks with "
           "unsatisfied slots, %u dependences or puts queued on datablocks)",
           rt.threads, rt.cfg.deadlock_s, report.tasks, report.requests);
}
