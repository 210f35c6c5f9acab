/*
 * arts.h: the ARTS v1 C API as implemented by libcartsrt.
 *
 * One header shared by the compiler's lowering (which emits calls with exactly these
 * signatures) and the runtime. Semantics: the README's runtime notes; the notes below
 * say what this implementation fixes where the contract leaves a choice.
 *
 * GUIDs (64 bits, NULL_GUID = 0):
 *
 *     63        56 55            40 39                               0
 *    +------------+----------------+----------------------------------+
 *    |  type (8)  |   route (16)   |             key (40)             |
 *    +------------+----------------+----------------------------------+
 *
 *   type   ARTS_EDT, ARTS_EVENT, ARTS_EPOCH or a datablock mode (ARTS_DB_*).
 *   route  the owner node (already reduced modulo the node count).
 *   key    bit 39 clear: reserved before the workers start (initPerNode), numbered 1, 2, ...
 *          in call order, so every node replaying the same reservations gets the same GUIDs;
 *          bit 39 set: minted while the program runs, [1 | minting node (8) | sequence (31)],
 *          unique across nodes without coordination.
 *
 * Task slots (artsEdtDep_t as seen by the task):
 *
 *   satisfied by                     guid           mode                ptr
 *   artsRecordDep(db, ..., mode)     db             mode (READ/WRITE/   owner payload
 *                                                   CONCURRENT; READ for
 *                                                   READ_STABLE, CONCURRENT
 *                                                   for CONCURRENT_STABLE)
 *   artsSignalEdt(edt, slot, db)     db             type of db's GUID   owner payload (unordered)
 *   artsSignalEdt(edt, slot, 0)      0              ARTS_NULL           NULL
 *   artsSignalEdtValue(...,v)        v              ARTS_SINGLE_VALUE   NULL
 *   artsSignalEdtNull(...)           0              ARTS_NULL           NULL
 *
 * Datablock access (artsRecordDep): per datablock, tasks are ordered by the order in which
 * their dependences were recorded. A run of consecutive READ registrations is one generation,
 * a run of consecutive CONCURRENT registrations is one generation, each WRITE is a generation
 * of its own; a generation is granted only after the previous one has been released by every
 * task in it (RAW, WAR, WAW). A task releases its datablocks when it returns. A task must not
 * record two dependences on one datablock if either is a WRITE (it would wait on itself).
 * artsSignalEdt with a datablock hands out the payload pointer without any ordering.
 * ARTS_DB_READ_STABLE (ours) is a READ of a datablock that no task writes while such a read
 * may run: it takes no place in the datablock's order. On one node the slot gets the payload
 * as soon as the datablock exists, and the task's return releases nothing; with several
 * nodes it is a READ. ARTS_DB_CONCURRENT_STABLE (ours) is likewise a CONCURRENT whose
 * datablock no other task acquires, in any mode but this one, while it may run: on one node
 * it takes the payload at once and releases nothing; with several nodes it is a CONCURRENT.
 * ARTS_DB_WRITE_STABLE (ours) is a WRITE of a datablock that no other task acquires while it
 * may run: on one node it takes the payload at once and releases nothing; with several nodes
 * it is a WRITE. The program promises the stability; the runtime does not check it.
 *
 * Epochs: a task is counted in the epoch given to artsEdtCreateWithEpoch (NULL_GUID means the
 * creator's current epoch) or in its creator's current epoch: the innermost epoch the creator
 * started and has not waited on yet, else the epoch the creator itself is counted in. An
 * epoch started inside another one also keeps that one open until it finishes, so an epoch
 * ends only when every task created under it, transitively, has finished. artsMain runs in
 * the top-level epoch; when that epoch drains, the runtime shuts down as if artsShutdown had
 * been called.
 *
 * Misuse (unknown GUIDs, a slot out of range or satisfied twice, a wait on something that is
 * not a live epoch, ...) prints "carts runtime: error: <what> (guid 0x...)" on stderr and
 * exits the process with status 2. So does a run that can no longer progress: when every
 * worker has been idle for deadlockTimeout seconds while tasks still wait (a slot nobody
 * satisfies, a datablock never created or held across a wait that needs it), the runtime
 * prints what waits for what ("carts runtime: note: ...") instead of hanging. Only threads
 * the runtime does not own could still make progress then; set deadlockTimeout=0 if the
 * program signals tasks from such threads.
 *
 * Configuration: arts.cfg ([ARTS] section, key=value, # comments) named by the environment
 * variable artsConfig, else ./arts.cfg, else defaults; any key can be overridden by an
 * environment variable of the same name. Keys read: threads (default: online cores),
 * nodeCount (1 in a process of its own; several nodes are several processes, see carts_node.h),
 * stackSize (worker stack bytes, k/m/g suffixes,
 * default 8m), deadlockTimeout (seconds, default 2, 0 = off), hugePages (1, the default: a
 * datablock payload of 2 MiB or more gets a 2 MiB-aligned mapping of its own with transparent
 * huge pages asked for; 0: every payload is calloc'ed), populate (1: such a payload is faulted
 * in when it is made; 0: by its first writer; default 1 on several nodes, 0 on one), affinity
 * and routeFollows (1, the defaults; see artsEdtCreate). Other keys are ignored.
 */
#ifndef CARTS_ARTS_H
#define CARTS_ARTS_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ARTS_API __attribute__((visibility("default")))
#else
#define ARTS_API
#endif

typedef uint64_t artsGuid_t;
#define NULL_GUID ((artsGuid_t)0)

/* GUID types, datablock modes and slot kinds. */
enum {
  ARTS_NULL = 0,           /* slot satisfied without data */
  ARTS_EDT = 1,
  ARTS_EVENT = 3,
  ARTS_EPOCH = 5,
  ARTS_DB_READ = 8,        /* shared read access */
  ARTS_DB_WRITE = 9,       /* exclusive write access */
  ARTS_DB_CONCURRENT = 10, /* write access shared with adjacent CONCURRENT acquires */
  ARTS_DB_READ_STABLE = 11, /* ours: a READ of a datablock no task writes meanwhile (above) */
  ARTS_DB_CONCURRENT_STABLE = 12, /* ours: a CONCURRENT that nothing else orders (above) */
  ARTS_DB_WRITE_STABLE = 13, /* ours: a WRITE of a datablock nothing else acquires (above) */
  ARTS_SINGLE_VALUE = 16,  /* slot satisfied by artsSignalEdtValue */
};

#define ARTS_GUID_TYPE_SHIFT 56
#define ARTS_GUID_ROUTE_SHIFT 40
#define ARTS_GUID_KEY_BITS 40
#define artsGuidGetType(g) ((uint32_t)((uint64_t)(g) >> ARTS_GUID_TYPE_SHIFT))
#define artsGuidGetRank(g) ((uint32_t)(((uint64_t)(g) >> ARTS_GUID_ROUTE_SHIFT) & 0xFFFFu))
#define artsGuidGetKey(g) ((uint64_t)(g) & ((UINT64_C(1) << ARTS_GUID_KEY_BITS) - 1))

typedef struct {
  artsGuid_t guid;
  uint32_t mode;
  void *ptr;
} artsEdtDep_t; /* 24 bytes, ptr at offset 16 */

typedef void (*artsEdt_t)(uint32_t paramc, uint64_t *paramv, uint32_t depc, artsEdtDep_t *depv);

/* GUIDs */
ARTS_API artsGuid_t artsReserveGuidRoute(uint32_t type, uint32_t route);

/* Datablocks. artsDbCreateWithGuid returns NULL on another node's route, and, as malloc
   does, when there is no memory for it: such a datablock may only be destroyed. */
ARTS_API void *artsDbCreateWithGuid(artsGuid_t guid, uint64_t bytes);
ARTS_API artsGuid_t artsDbCreateRemote(uint32_t route, uint64_t bytes, uint32_t mode);
/* Ours: creates the datablock of a reserved GUID on its owner, whichever node calls it: the
   zeroed payload when this node owns it, else NULL and a message to the owner. */
ARTS_API void *artsDbCreateOnOwner(artsGuid_t guid, uint64_t bytes);
ARTS_API void artsDbDestroy(artsGuid_t guid);

/* Tasks. A task's `route` is its node, taken modulo the node count. Our extension: a route
   of `node + nodes * (1 + w)` also asks for worker w (modulo the workers) of that node, which
   runs the task once it is ready unless it is busy and another worker is idle (then the idle
   one takes it). A parallel loop's chunk k asks for the same worker in every epoch, so the
   rows a worker wrote in one epoch are still in its cache in the next (affinity=0 in arts.cfg
   or the environment ignores the request). Once another worker has run one of w's tasks,
   the tasks that ask for w go to that worker, where the rows now are (routeFollows=0: they
   keep going to w). */
ARTS_API artsGuid_t artsEdtCreate(artsEdt_t fn, uint32_t route, uint32_t paramc, uint64_t *paramv,
                                  uint32_t depc);
ARTS_API artsGuid_t artsEdtCreateWithEpoch(artsEdt_t fn, uint32_t route, uint32_t paramc,
                                           uint64_t *paramv, uint32_t depc, artsGuid_t epoch);
ARTS_API void artsRecordDep(artsGuid_t db, artsGuid_t edt, uint32_t slot, uint32_t mode);

/* Ours: a creation with its datablock dependences, as artsEdtCreateWithEpoch (epoch NULL_GUID:
   as artsEdtCreate) followed by artsRecordDep for every GUID of `runv[0..runc)`, in order,
   with nothing else seeing the task in between. Run k holds rows x cols GUIDs, row-major,
   rows `stride` GUIDs apart, acquired in `mode` into slots first_slot, first_slot + 1, ...
   Slots no run names are left for artsSignalEdt and friends. */
typedef struct artsDbRun {
  const artsGuid_t *guids;
  uint64_t rows, cols, stride;
  uint32_t first_slot, mode;
} artsDbRun; /* 40 bytes: five words, the last first_slot | mode << 32 */
ARTS_API artsGuid_t artsEdtCreateWithDbs(artsEdt_t fn, uint32_t route, uint32_t paramc,
                                         uint64_t *paramv, uint32_t depc, artsGuid_t epoch,
                                         uint32_t runc, const artsDbRun *runv);
ARTS_API void artsSignalEdt(artsGuid_t edt, uint32_t slot, artsGuid_t db);
ARTS_API void artsSignalEdtValue(artsGuid_t edt, uint32_t slot, uint64_t value);
ARTS_API void artsSignalEdtNull(artsGuid_t edt, uint32_t slot);

/* Epochs. artsWaitOnHandle returns true once the epoch has ended, false if the runtime was
   shut down first; the waiting worker runs other ready tasks meanwhile. */
ARTS_API artsGuid_t artsInitializeAndStartEpoch(artsGuid_t finishEdt, uint32_t slot);
ARTS_API bool artsWaitOnHandle(artsGuid_t epoch);
ARTS_API void artsPutInDbEpoch(void *src, artsGuid_t epoch, artsGuid_t db, uint32_t offset,
                               uint32_t bytes);
/* Ours, the mirror of artsPutInDbEpoch: copy bytes [offset, offset + bytes) of the owner's
   payload into dst, ordered like a READ acquire recorded now (after every generation recorded
   on the datablock before it), counted in `epoch`; after artsWaitOnHandle(epoch) dst holds
   them. A put whose src is the owner's payload itself, or a get whose dst is, copies nothing
   (host code passes its view of every block, local ones included). */
ARTS_API void artsGetFromDbEpoch(void *dst, artsGuid_t epoch, artsGuid_t db, uint32_t offset,
                                 uint32_t bytes);

/* Ours: send the payload of `db`, owned by this node, to every other node that holds no copy
   of its current version, so that their tasks' READ acquires of it ship nothing. It does
   nothing on one node, for a datablock of another node, or while a task holds the datablock
   or waits for it: a transfer made early, never needed for correctness. Host code calls it
   after its last write to a table that tasks on every node read whole. */
ARTS_API void artsDbShare(artsGuid_t db);

/* Ours: a launch. From artsLaunchBegin to the matching artsLaunchEnd (they nest), what the
   calling thread sends each other node (task creations, dependence records, grants) is held
   and leaves at the end as one message per node, in the order it was sent: a loop creating
   tasks on other nodes sends each one message however many tasks it creates there. Epoch
   announcements still leave at once. Nothing happens on one node. */
ARTS_API void artsLaunchBegin(void);
ARTS_API void artsLaunchEnd(void);

/* Ours: the lock of a critical section, one per id (the compiler hashes the section's name)
   and per node. A task holding it runs to completion, so a worker waiting for it waits for
   running code only. Sections with different ids may nest. */
ARTS_API void artsCriticalEnter(uint64_t id);
ARTS_API void artsCriticalExit(uint64_t id);

/* Topology */
ARTS_API uint32_t artsGetCurrentNode(void);
ARTS_API uint32_t artsGetTotalNodes(void);
ARTS_API uint32_t artsGetCurrentWorker(void);
ARTS_API uint32_t artsGetTotalWorkers(void);

/* Lifecycle. The program's main calls artsSetEntryPoints (initPerNode and initPerWorker may
   be NULL), then artsRT, which runs initPerNode(node) once, initPerWorker(node, worker) on
   every worker, then artsMain as the first task on worker 0, and returns 0 once shut down
   (non-zero if the configuration is unusable). artsRT may be called again afterwards. */
ARTS_API void artsShutdown(void);
ARTS_API void artsSetEntryPoints(void (*artsMain)(int, char **),
                                 void (*initPerNode)(uint32_t, int, char **),
                                 void (*initPerWorker)(uint32_t, uint32_t, int, char **));
ARTS_API int artsRT(int argc, char **argv);
/* exit() of a program (ours; the compiled program calls it instead of the C library's). On
   one node it is the C library's exit. On several nodes the process is a node of a larger
   run and must outlive the program: the output is flushed, the run ends on every node (a
   node other than 0 tells node 0), the calling task and every task waiting for an epoch stop
   where they are, and artsRT returns `code`. */
ARTS_API void cartsExit(int code) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif /* CARTS_ARTS_H */
