/* The wire between nodes: one TCP connection per ordered pair of nodes, carried by native
   threads, so that no message waits for Python or for Ray on its way.

   The node actor (carts_mlir.nodes) opens the connections for each run and hands their
   descriptors over with cartsNodeAttach. From then on an outbox (net.c) is taken whole and
   written as a frame {uint64 length, batch} on the destination's connection: by the worker
   that queued messages, when its task has finished; by a receiver, after applying a batch;
   else by the sender thread, woken whenever an outbox gets bytes. One receiver thread per
   other node reads frames and applies them in order. TCP keeps each connection's frames in
   order, which is the order transport.h needs. */
#include "internal.h"
#include "carts_node.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

typedef struct {
  pthread_mutex_t lock; /* taking an outbox and writing it are one step: frames stay in order */
  int fd;               /* -1: this node; broken connections keep -fd - 2 (closed at the end) */
} sender_end;

typedef struct {
  uint32_t src;
  int fd;
  pthread_t thread;
} receiver;

static struct {
  _Atomic int attached; /* read by any thread that flushes */
  uint32_t node, nodes;
  sender_end *out;   /* out[n]: the connection to node n */
  receiver *in;      /* in[n]: node n's connection to this node */
  pthread_t sender;
} wire;

/* Write all of `head` then `body`; 0 when the connection broke (the peer is gone: what it
   would have received no longer matters, and the driver reports the lost node). */
static int write_frame(int fd, const void *head, size_t head_len, const void *body,
                       size_t body_len) {
  struct iovec iov[2] = {{(void *)head, head_len}, {(void *)body, body_len}};
  struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};
  while (iov[0].iov_len + iov[1].iov_len > 0) {
    ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return 0;
    }
    for (int i = 0; i < 2; i++) {
      size_t step = (size_t)n < iov[i].iov_len ? (size_t)n : iov[i].iov_len;
      iov[i].iov_base = (char *)iov[i].iov_base + step;
      iov[i].iov_len -= step;
      n -= (ssize_t)step;
    }
    msg.msg_iov = iov[0].iov_len ? iov : iov + 1;
    msg.msg_iovlen = iov[0].iov_len ? 2 : 1;
  }
  return 1;
}

static int read_full(int fd, void *buf, size_t len) {
  char *p = buf;
  while (len) {
    ssize_t n = recv(fd, p, len, 0);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return 0;
    p += n;
    len -= (size_t)n;
  }
  return 1;
}

/* Take what is queued for `dest` and write it as one frame. */
static void flush_to(uint32_t dest) {
  sender_end *o = &wire.out[dest];
  pthread_mutex_lock(&o->lock);
  void *buf;
  uint64_t len = rt_net_take_outbox(dest, &buf);
  if (len && o->fd >= 0) {
    if (write_frame(o->fd, &len, sizeof len, buf, len))
      rt_net_count_batch(1);
    else {
      shutdown(o->fd, SHUT_RDWR);
      o->fd = -o->fd - 2;
    }
  }
  pthread_mutex_unlock(&o->lock);
  free(buf);
}

void rt_net_flush(void) {
  if (!wire.attached)
    return;
  for (uint32_t dest = 0; dest < wire.nodes; dest++)
    if (dest != wire.node && rt_net_outbox_pending(dest))
      flush_to(dest);
}

/* Whatever no worker or receiver flushed on its way (host code between epochs, a task
   that waits inside its body) goes out from here. */
static void *sender_main(void *arg) {
  (void)arg;
  for (;;) {
    int state = rt_net_wait_outbox();
    rt_net_flush();
    if (state < 0)
      break;
  }
  for (uint32_t n = 0; n < wire.nodes; n++)
    if (n != wire.node && wire.out[n].fd >= 0)
      shutdown(wire.out[n].fd, SHUT_WR); /* the peer's receiver sees the end */
  return NULL;
}

static void *receiver_main(void *arg) {
  receiver *r = arg;
  unsigned char *buf = NULL;
  uint64_t cap = 0, len;
  while (read_full(r->fd, &len, sizeof len)) {
    if (len > cap) {
      unsigned char *grown = realloc(buf, len);
      if (!grown)
        rt_fatal_plain("out of memory for a batch of %llu bytes from node %u",
                       (unsigned long long)len, r->src);
      buf = grown;
      cap = len;
    }
    if (!read_full(r->fd, buf, len))
      break;
    rt_net_count_batch(0);
    rt_net_deliver(r->src, buf, len);
    rt_net_flush(); /* what applying it queued (grants, forwarded creations) */
  }
  free(buf);
  return NULL;
}

int cartsNodeAttach(const int *out_fds, const int *in_fds) {
  uint32_t node, nodes;
  if (wire.attached || !rt_net_topology(&node, &nodes))
    return -1;
  wire.node = node;
  wire.nodes = nodes;
  wire.out = calloc(nodes, sizeof *wire.out);
  wire.in = calloc(nodes, sizeof *wire.in);
  if (!wire.out || !wire.in)
    return -1;
  for (uint32_t n = 0; n < nodes; n++) {
    wire.out[n].fd = n == node ? -1 : out_fds[n];
    pthread_mutex_init(&wire.out[n].lock, NULL);
    wire.in[n] = (receiver){.src = n, .fd = n == node ? -1 : in_fds[n]};
  }
  wire.attached = 1;
  for (uint32_t n = 0; n < nodes; n++)
    if (n != node && pthread_create(&wire.in[n].thread, NULL, receiver_main, &wire.in[n]))
      rt_fatal_plain("cannot start the receiver of node %u's messages", n);
  if (pthread_create(&wire.sender, NULL, sender_main, NULL))
    rt_fatal_plain("cannot start the node's sender thread");
  return 0;
}

void cartsNodeDetach(void) {
  if (!wire.attached)
    return;
  cartsNodeStop(); /* the sender takes what is left and ends */
  pthread_join(wire.sender, NULL);
  wire.attached = 0; /* no new flush from here on */
  for (uint32_t n = 0; n < wire.nodes; n++)
    if (n != wire.node)
      shutdown(wire.in[n].fd, SHUT_RDWR); /* a peer still sending is no longer heard */
  /* Every receiver has stopped (one may have been writing to any node) before a
     descriptor is closed. */
  for (uint32_t n = 0; n < wire.nodes; n++)
    if (n != wire.node)
      pthread_join(wire.in[n].thread, NULL);
  for (uint32_t n = 0; n < wire.nodes; n++) {
    if (n == wire.node)
      continue;
    close(wire.in[n].fd);
    int out = wire.out[n].fd;
    close(out >= 0 ? out : -out - 2);
    pthread_mutex_destroy(&wire.out[n].lock);
  }
  free(wire.out);
  free(wire.in);
  wire.out = NULL;
  wire.in = NULL;
}
