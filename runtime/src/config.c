/* arts.cfg: an [ARTS] section of key=value lines with # comments, located by the environment
   variable artsConfig, else ./arts.cfg, else built-in defaults. Any key can be overridden by
   an environment variable of the same name. Unknown keys are ignored. */
#include "internal.h"
#include "carts_config.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_THREADS CARTS_MAX_THREADS
#define MAX_NODES CARTS_MAX_NODES

typedef enum {
  KEY_THREADS,
  KEY_NODE_COUNT,
  KEY_STACK_SIZE,
  KEY_DEADLOCK,
  KEY_SPIN,
  KEY_AFFINITY,
  KEY_PROFILE,
  KEY_TRACE,
  KEY_HUGE_PAGES,
  KEY_ROUTE_FOLLOWS,
  KEY_POPULATE,
  KEY_COUNT
} key_id;

static const char *const key_names[KEY_COUNT] = {"threads",     "nodeCount", "stackSize",
                                                 "deadlockTimeout", "spinTime", "affinity",
                                                 "profile", "trace", "hugePages",
                                                 "routeFollows", "populate"};

/* 0 or 1 (also no/yes, off/on, false/true). */
static int parse_flag(const char *text, int *out) {
  static const char *const off[] = {"0", "no", "off", "false"}, *const on[] = {"1", "yes", "on", "true"};
  for (int i = 0; i < 4; i++) {
    if (strcasecmp(text, off[i]) == 0)
      return *out = 0, 0;
    if (strcasecmp(text, on[i]) == 0)
      return *out = 1, 0;
  }
  return -1;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s))
    s++;
  char *end = s + strlen(s);
  while (end > s && isspace((unsigned char)end[-1]))
    *--end = '\0';
  return s;
}

/* A positive integer, optionally with a k/m/g suffix (powers of 1024) for sizes. */
static int parse_count(const char *text, int allow_suffix, uint64_t *out) {
  if (!isdigit((unsigned char)*text))
    return -1;
  errno = 0;
  char *end;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno)
    return -1;
  if (allow_suffix && *end) {
    unsigned shift = 0;
    switch (tolower((unsigned char)*end)) {
    case 'k': shift = 10; break;
    case 'm': shift = 20; break;
    case 'g': shift = 30; break;
    default: return -1;
    }
    if (v > (UINT64_MAX >> shift))
      return -1;
    v <<= shift;
    end++;
  }
  if (*end || v == 0)
    return -1;
  *out = v;
  return 0;
}

/* Store `value` for a key we read; `where` names its origin for messages. */
static int set_key(rt_config *cfg, key_id key, const char *value, const char *where) {
  uint64_t v;
  switch (key) {
  case KEY_THREADS:
    if (parse_count(value, 0, &v) || v > MAX_THREADS) {
      fprintf(stderr, "carts runtime: error: %s: threads must be an integer in 1..%u, got '%s'\n",
              where, MAX_THREADS, value);
      return -1;
    }
    cfg->threads = (uint32_t)v;
    return 0;
  case KEY_NODE_COUNT:
    if (parse_count(value, 0, &v) || v > MAX_NODES) {
      fprintf(stderr, "carts runtime: error: %s: nodeCount must be an integer in 1..%u, got '%s'\n",
              where, MAX_NODES, value);
      return -1;
    }
    cfg->node_count = (uint32_t)v;
    return 0;
  case KEY_DEADLOCK: {
    char *end;
    errno = 0;
    double seconds = strtod(value, &end);
    if (errno || end == value || *end || !(seconds >= 0 && seconds <= 1e6)) {
      fprintf(stderr,
              "carts runtime: error: %s: deadlockTimeout must be a number of seconds (0 turns "
              "the check off), got '%s'\n",
              where, value);
      return -1;
    }
    cfg->deadlock_s = seconds;
    return 0;
  }
  case KEY_SPIN: {
    char *end;
    errno = 0;
    double us = strtod(value, &end);
    if (errno || end == value || *end || !(us >= 0 && us <= 1e7)) {
      fprintf(stderr,
              "carts runtime: error: %s: spinTime must be the microseconds an idle worker polls "
              "before it sleeps (0 and up), got '%s'\n",
              where, value);
      return -1;
    }
    cfg->spin_ns = (int64_t)(us * 1000.0);
    return 0;
  }
  case KEY_AFFINITY:
  case KEY_PROFILE:
  case KEY_HUGE_PAGES:
  case KEY_POPULATE:
  case KEY_ROUTE_FOLLOWS: {
    int flag;
    if (parse_flag(value, &flag)) {
      fprintf(stderr, "carts runtime: error: %s: %s must be 0 or 1, got '%s'\n", where,
              key_names[key], value);
      return -1;
    }
    if (key == KEY_AFFINITY)
      cfg->affinity = flag;
    else if (key == KEY_PROFILE)
      cfg->profile = flag;
    else if (key == KEY_HUGE_PAGES)
      cfg->huge_pages = flag;
    else if (key == KEY_POPULATE)
      cfg->populate = flag;
    else
      cfg->route_follows = flag;
    return 0;
  }
  case KEY_TRACE:
    if (strlen(value) >= sizeof cfg->trace_path) {
      fprintf(stderr, "carts runtime: error: %s: trace must be a file path shorter than %zu bytes\n",
              where, sizeof cfg->trace_path);
      return -1;
    }
    strcpy(cfg->trace_path, value);
    return 0;
  case KEY_STACK_SIZE:
    if (parse_count(value, 1, &v) || v < 65536) {
      fprintf(stderr,
              "carts runtime: error: %s: stackSize must be a byte count of at least 65536 "
              "(suffixes k, m, g allowed), got '%s'\n",
              where, value);
      return -1;
    }
    cfg->stack_size = v;
    return 0;
  default:
    return 0;
  }
}

static int lookup_key(const char *name) {
  for (int k = 0; k < KEY_COUNT; k++)
    if (strcmp(name, key_names[k]) == 0)
      return k;
  return -1;
}

static int parse_file(rt_config *cfg, FILE *f, const char *path) {
  char *line = NULL;
  size_t cap = 0;
  unsigned lineno = 0;
  int in_arts = 1; /* keys before any section header count as [ARTS] */
  int rc = 0;
  while (getline(&line, &cap, f) >= 0) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash)
      *hash = '\0';
    char *s = trim(line);
    if (!*s)
      continue;
    char where[512];
    snprintf(where, sizeof where, "%s:%u", path, lineno);
    if (*s == '[') {
      char *close = strchr(s, ']');
      if (!close || *trim(close + 1)) {
        fprintf(stderr, "carts runtime: error: %s: malformed section header '%s'\n", where, s);
        rc = -1;
        break;
      }
      *close = '\0';
      in_arts = strcmp(trim(s + 1), "ARTS") == 0;
      continue;
    }
    char *eq = strchr(s, '=');
    if (!eq) {
      fprintf(stderr, "carts runtime: error: %s: expected key=value, got '%s'\n", where, s);
      rc = -1;
      break;
    }
    *eq = '\0';
    char *key = trim(s), *value = trim(eq + 1);
    if (!*key) {
      fprintf(stderr, "carts runtime: error: %s: missing key before '='\n", where);
      rc = -1;
      break;
    }
    int id = lookup_key(key);
    if (in_arts && id >= 0 && set_key(cfg, (key_id)id, value, where)) {
      rc = -1;
      break;
    }
  }
  free(line);
  return rc;
}

/* The worker count a driver set (cartsSetThreads), 0 when none did. */
static uint32_t threads_set;

int cartsSetThreads(uint32_t threads) {
  if (threads > MAX_THREADS)
    return -1;
  threads_set = threads;
  return 0;
}

int rt_config_load(rt_config *cfg) {
  long cores = sysconf(_SC_NPROCESSORS_ONLN);
  cfg->threads = cores > 0 ? (uint32_t)(cores < (long)MAX_THREADS ? cores : MAX_THREADS) : 1;
  cfg->node_count = 1;
  cfg->stack_size = (uint64_t)8 << 20;
  cfg->deadlock_s = 2.0;
  cfg->spin_ns = -1;
  cfg->affinity = 1;
  cfg->profile = 0;
  cfg->huge_pages = 1;
  cfg->populate = -1;
  cfg->route_follows = 1;
  cfg->trace_path[0] = '\0';

  const char *path = getenv("artsConfig");
  int explicit_path = path && *path;
  if (!explicit_path)
    path = "arts.cfg";
  FILE *f = fopen(path, "r");
  if (!f && explicit_path) {
    fprintf(stderr, "carts runtime: error: cannot read the configuration %s (from artsConfig): %s\n",
            path, strerror(errno));
    return -1;
  }
  if (f) {
    int rc = parse_file(cfg, f, path);
    fclose(f);
    if (rc)
      return -1;
  }

  for (int k = 0; k < KEY_COUNT; k++) {
    const char *value = getenv(key_names[k]);
    if (value && *value) {
      char where[64];
      snprintf(where, sizeof where, "environment variable %s", key_names[k]);
      if (set_key(cfg, (key_id)k, value, where))
        return -1;
    }
  }

  if (threads_set)
    cfg->threads = threads_set; /* the driver's, resolved from the same sources */

  cfg->node = 0;
  uint32_t node, nodes;
  if (rt_net_topology(&node, &nodes)) {
    cfg->node = node;
    cfg->node_count = nodes; /* the node actors decide, whatever nodeCount says */
  } else if (cfg->node_count != 1) {
    fprintf(stderr,
            "carts runtime: error: nodeCount=%u, but this process runs one node; several nodes "
            "are started by `carts execute --nodes N` (one Ray actor per node)\n",
            cfg->node_count);
    return -1;
  }
  if (cfg->spin_ns < 0)
    /* Poll long enough to bridge the serial gap between two epochs of a parallel loop, unless
       workers may share cores (more workers than cores, or several nodes' processes on one
       machine): then a polling worker delays a busy one. */
    cfg->spin_ns = cfg->node_count == 1 && cores > 0 && cfg->threads <= (uint32_t)cores
                       ? 1000000
                       : 50000;
  if (cfg->populate < 0)
    /* A node's shares of a distributed table are made when the table is distributed, ahead
       of the tasks that write them: fault them in then (db.c). One node faults lazily, as a
       program's own malloc'd memory is. */
    cfg->populate = cfg->node_count > 1;
  return 0;
}
