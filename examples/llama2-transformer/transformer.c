/*
 * A small llama2-style transformer forward pass over a short sequence:
 *
 *   for each position:
 *     x = embedding row of the token
 *     for each layer:
 *       xb = rmsnorm(x) ; q, k, v = Wq xb, Wk xb, Wv xb ; RoPE on q and k
 *       cache k, v ; multi-head attention over positions 0..pos (softmax)
 *       x += Wo att ; xb = rmsnorm(x)
 *       x += W2 (silu(W1 xb) * (W3 xb))                       (SwiGLU FFN)
 *     x = rmsnorm(x) ; logits = Wcls x
 *
 * Weights are float *** [layer][rows][cols] from alloc_3d, filled with rand()
 * after srand(42).  matmul is parallel over output rows, attention over
 * heads; every dot product is sequential inside one iteration, so results do
 * not depend on the thread count.
 * Checksum: sum of |logits| over all positions, in double.
 */
#include "carts_bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Sizes: -DMINI_DATASET / -DSMALL_DATASET (default) / -DMEDIUM_DATASET /
 * -DLARGE_DATASET, or directly with -DDIM=... -DHIDDEN_DIM=... etc. */
#if defined(MINI_DATASET)
#define DIM_DEFAULT 16
#define HIDDEN_DEFAULT 64
#define LAYERS_DEFAULT 2
#define HEADS_DEFAULT 2
#define SEQ_DEFAULT 4
#define VOCAB_DEFAULT 32
#elif defined(MEDIUM_DATASET)
#define DIM_DEFAULT 128
#define HIDDEN_DEFAULT 512
#define LAYERS_DEFAULT 6
#define HEADS_DEFAULT 8
#define SEQ_DEFAULT 16
#define VOCAB_DEFAULT 512
#elif defined(LARGE_DATASET)
#define DIM_DEFAULT 256
#define HIDDEN_DEFAULT 1024
#define LAYERS_DEFAULT 8
#define HEADS_DEFAULT 8
#define SEQ_DEFAULT 32
#define VOCAB_DEFAULT 1024
#else /* SMALL_DATASET */
#define DIM_DEFAULT 64
#define HIDDEN_DEFAULT 256
#define LAYERS_DEFAULT 4
#define HEADS_DEFAULT 4
#define SEQ_DEFAULT 8
#define VOCAB_DEFAULT 256
#endif

#ifndef DIM
#define DIM DIM_DEFAULT
#endif
#ifndef HIDDEN_DIM
#define HIDDEN_DIM HIDDEN_DEFAULT
#endif
#ifndef N_LAYERS
#define N_LAYERS LAYERS_DEFAULT
#endif
#ifndef N_HEADS
#define N_HEADS HEADS_DEFAULT
#endif
#ifndef SEQ_LEN
#define SEQ_LEN SEQ_DEFAULT
#endif
#ifndef VOCAB
#define VOCAB VOCAB_DEFAULT
#endif

#define HEAD_SIZE (DIM / N_HEADS)
#define RMS_EPS 1e-5f
#define ROPE_THETA 10000.0f

/* ------------------------------------------------------------------ memory */

static float *alloc_1d(int n) { return (float *)malloc(n * sizeof(float)); }

static float **alloc_2d(int rows, int cols) {
  float **a = (float **)malloc(rows * sizeof(float *));
  for (int i = 0; i < rows; i++)
    a[i] = alloc_1d(cols);
  return a;
}

static float ***alloc_3d(int d0, int d1, int d2) {
  float ***a = (float ***)malloc(d0 * sizeof(float **));
  for (int i = 0; i < d0; i++)
    a[i] = alloc_2d(d1, d2);
  return a;
}

static void free_2d(float **a, int rows) {
  for (int i = 0; i < rows; i++)
    free(a[i]);
  free(a);
}

static void free_3d(float ***a, int d0, int d1) {
  for (int i = 0; i < d0; i++)
    free_2d(a[i], d1);
  free(a);
}

static float rand_weight(void) {
  return ((float)rand() / (float)RAND_MAX - 0.5f) * 0.1f;
}

static void fill_2d(float **a, int rows, int cols) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      a[i][j] = rand_weight();
}

static void fill_3d(float ***a, int d0, int d1, int d2) {
  for (int i = 0; i < d0; i++)
    fill_2d(a[i], d1, d2);
}

/* rmsnorm weights are around 1 */
static void fill_norm(float **a, int rows, int cols) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++)
      a[i][j] = 1.0f + rand_weight();
}

/* ----------------------------------------------------------------- kernels */

/* o = weight * x / rms(x) */
static void rmsnorm(float *o, float *x, float *weight, int size) {
  float ss = 0.0f;
  for (int j = 0; j < size; j++)
    ss += x[j] * x[j];
  ss /= size;
  ss += RMS_EPS;
  ss = 1.0f / sqrtf(ss);
  for (int j = 0; j < size; j++)
    o[j] = weight[j] * (ss * x[j]);
}

/* xout[d] = W[d][n] x[n], parallel over the d output rows */
static void matmul(float *xout, float *x, float **w, int n, int d) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < d; i++) {
    float val = 0.0f;
    for (int j = 0; j < n; j++)
      val += w[i][j] * x[j];
    xout[i] = val;
  }
}

/* in-place softmax of x[0 .. size-1] */
static void softmax(float *x, int size) {
  float max_val = x[0];
  for (int i = 1; i < size; i++)
    if (x[i] > max_val)
      max_val = x[i];
  float sum = 0.0f;
  for (int i = 0; i < size; i++) {
    x[i] = expf(x[i] - max_val);
    sum += x[i];
  }
  for (int i = 0; i < size; i++)
    x[i] /= sum;
}

/* rotary position embedding on the pairs (2i, 2i+1) of q and k */
static void rope(float *q, float *k, int pos, int dim, int head_size) {
  for (int i = 0; i < dim; i += 2) {
    int head_dim = i % head_size;
    float freq = 1.0f / powf(ROPE_THETA, (float)head_dim / (float)head_size);
    float val = (float)pos * freq;
    float fcr = cosf(val);
    float fci = sinf(val);
    float q0 = q[i];
    float q1 = q[i + 1];
    q[i] = q0 * fcr - q1 * fci;
    q[i + 1] = q0 * fci + q1 * fcr;
    float k0 = k[i];
    float k1 = k[i + 1];
    k[i] = k0 * fcr - k1 * fci;
    k[i + 1] = k0 * fci + k1 * fcr;
  }
}

/* multi-head attention of q against the cached keys/values of positions
 * 0..pos of one layer; att is scratch [N_HEADS][SEQ_LEN]; result in xb */
static void attention(float *xb, float *q, float **key_cache,
                      float **value_cache, float **att, int pos) {
  float scale = 1.0f / sqrtf((float)HEAD_SIZE);
#pragma omp parallel for firstprivate(scale)
  for (int h = 0; h < N_HEADS; h++) {
    int off = h * HEAD_SIZE;
    for (int t = 0; t <= pos; t++) {
      float score = 0.0f;
      for (int i = 0; i < HEAD_SIZE; i++)
        score += q[off + i] * key_cache[t][off + i];
      att[h][t] = score * scale;
    }
    softmax(att[h], pos + 1);
    for (int i = 0; i < HEAD_SIZE; i++) {
      float acc = 0.0f;
      for (int t = 0; t <= pos; t++)
        acc += att[h][t] * value_cache[t][off + i];
      xb[off + i] = acc;
    }
  }
}

/* SwiGLU: hb = silu(hb) * hb2 */
static void swiglu(float *hb, float *hb2, int hidden) {
#pragma omp parallel for
  for (int i = 0; i < hidden; i++) {
    float v = hb[i];
    v *= 1.0f / (1.0f + expf(-v));
    hb[i] = v * hb2[i];
  }
}

static void residual(float *x, float *delta, int size) {
#pragma omp parallel for
  for (int i = 0; i < size; i++)
    x[i] += delta[i];
}

int main(void) {
  CARTS_BENCHMARKS_START();
  CARTS_E2E_TIMER_START(transformer);

  /* weights */
  float **token_embedding = alloc_2d(VOCAB, DIM);
  float **rms_att_weight = alloc_2d(N_LAYERS, DIM);
  float **rms_ffn_weight = alloc_2d(N_LAYERS, DIM);
  float ***wq = alloc_3d(N_LAYERS, DIM, DIM);
  float ***wk = alloc_3d(N_LAYERS, DIM, DIM);
  float ***wv = alloc_3d(N_LAYERS, DIM, DIM);
  float ***wo = alloc_3d(N_LAYERS, DIM, DIM);
  float ***w1 = alloc_3d(N_LAYERS, HIDDEN_DIM, DIM);
  float ***w2 = alloc_3d(N_LAYERS, DIM, HIDDEN_DIM);
  float ***w3 = alloc_3d(N_LAYERS, HIDDEN_DIM, DIM);
  float *rms_final_weight = alloc_1d(DIM);
  float **wcls = alloc_2d(VOCAB, DIM);

  /* activations and caches */
  float *x = alloc_1d(DIM);
  float *xb = alloc_1d(DIM);
  float *xb2 = alloc_1d(DIM);
  float *q = alloc_1d(DIM);
  float *k = alloc_1d(DIM);
  float *v = alloc_1d(DIM);
  float *hb = alloc_1d(HIDDEN_DIM);
  float *hb2 = alloc_1d(HIDDEN_DIM);
  float *logits = alloc_1d(VOCAB);
  float **att = alloc_2d(N_HEADS, SEQ_LEN);
  float ***key_cache = alloc_3d(N_LAYERS, SEQ_LEN, DIM);
  float ***value_cache = alloc_3d(N_LAYERS, SEQ_LEN, DIM);
  int *tokens = (int *)malloc(SEQ_LEN * sizeof(int));

  srand(42);
  fill_2d(token_embedding, VOCAB, DIM);
  fill_norm(rms_att_weight, N_LAYERS, DIM);
  fill_norm(rms_ffn_weight, N_LAYERS, DIM);
  fill_3d(wq, N_LAYERS, DIM, DIM);
  fill_3d(wk, N_LAYERS, DIM, DIM);
  fill_3d(wv, N_LAYERS, DIM, DIM);
  fill_3d(wo, N_LAYERS, DIM, DIM);
  fill_3d(w1, N_LAYERS, HIDDEN_DIM, DIM);
  fill_3d(w2, N_LAYERS, DIM, HIDDEN_DIM);
  fill_3d(w3, N_LAYERS, HIDDEN_DIM, DIM);
  for (int i = 0; i < DIM; i++)
    rms_final_weight[i] = 1.0f + rand_weight();
  fill_2d(wcls, VOCAB, DIM);
  for (int p = 0; p < SEQ_LEN; p++)
    tokens[p] = rand() % VOCAB;

  double checksum = 0.0;

  CARTS_KERNEL_TIMER_START(transformer);
  for (int pos = 0; pos < SEQ_LEN; pos++) {
    int token = tokens[pos];
    for (int i = 0; i < DIM; i++)
      x[i] = token_embedding[token][i];

    for (int l = 0; l < N_LAYERS; l++) {
      /* attention block */
      rmsnorm(xb, x, rms_att_weight[l], DIM);
      matmul(q, xb, wq[l], DIM, DIM);
      matmul(k, xb, wk[l], DIM, DIM);
      matmul(v, xb, wv[l], DIM, DIM);
      rope(q, k, pos, DIM, HEAD_SIZE);
      for (int i = 0; i < DIM; i++) {
        key_cache[l][pos][i] = k[i];
        value_cache[l][pos][i] = v[i];
      }
      attention(xb, q, key_cache[l], value_cache[l], att, pos);
      matmul(xb2, xb, wo[l], DIM, DIM);
      residual(x, xb2, DIM);

      /* feed-forward block */
      rmsnorm(xb, x, rms_ffn_weight[l], DIM);
      matmul(hb, xb, w1[l], DIM, HIDDEN_DIM);
      matmul(hb2, xb, w3[l], DIM, HIDDEN_DIM);
      swiglu(hb, hb2, HIDDEN_DIM);
      matmul(xb, hb, w2[l], HIDDEN_DIM, DIM);
      residual(x, xb, DIM);
    }

    rmsnorm(x, x, rms_final_weight, DIM);
    matmul(logits, x, wcls, DIM, VOCAB);
    for (int i = 0; i < VOCAB; i++)
      checksum += fabsf(logits[i]);
  }
  CARTS_KERNEL_TIMER_STOP(transformer);

  CARTS_E2E_TIMER_STOP();
  CARTS_BENCHMARKS_STOP();

  CARTS_BENCH_CHECKSUM(checksum);

  free_2d(token_embedding, VOCAB);
  free_2d(rms_att_weight, N_LAYERS);
  free_2d(rms_ffn_weight, N_LAYERS);
  free_3d(wq, N_LAYERS, DIM);
  free_3d(wk, N_LAYERS, DIM);
  free_3d(wv, N_LAYERS, DIM);
  free_3d(wo, N_LAYERS, DIM);
  free_3d(w1, N_LAYERS, HIDDEN_DIM);
  free_3d(w2, N_LAYERS, DIM);
  free_3d(w3, N_LAYERS, HIDDEN_DIM);
  free(rms_final_weight);
  free_2d(wcls, VOCAB);
  free(x);
  free(xb);
  free(xb2);
  free(q);
  free(k);
  free(v);
  free(hb);
  free(hb2);
  free(logits);
  free_2d(att, N_HEADS);
  free_3d(key_cache, N_LAYERS, SEQ_LEN);
  free_3d(value_cache, N_LAYERS, SEQ_LEN);
  free(tokens);
  return 0;
}
