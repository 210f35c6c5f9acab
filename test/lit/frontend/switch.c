// RUN: carts cgeist %s -S | FileCheck %s
// RUN: not carts cgeist %s -S -DMIDBREAK 2>&1 | FileCheck %s --check-prefix=MID

// A switch is one scf.if per case, in order: a case runs when the value matches one of
// its labels (the default: none of the switch's labels) or when the case before it ran
// and falls through. The conditions come from the value alone; a trailing break is the
// end of its case.

// CHECK-LABEL: func.func @classify
// CHECK: %[[EQ1:.*]] = arith.cmpi eq, %[[K:.*]], %c1_i32 : i32
// CHECK: %[[EQ2:.*]] = arith.cmpi eq, %[[K]], %c2_i32 : i32
// CHECK: %[[ONE_TWO:.*]] = arith.ori %[[EQ1]], %[[EQ2]] : i1
// CHECK: %[[EQ5:.*]] = arith.cmpi eq, %[[K]], %c5_i32 : i32
// CHECK: %[[NONE:.*]] = arith.xori %{{.*}}, %true : i1
// case 5 falls through into the default:
// CHECK: %[[RUN_DEF:.*]] = arith.ori %[[NONE]], %[[EQ5]] : i1
// CHECK: scf.if %[[ONE_TWO]] {
// CHECK: scf.if %[[EQ5]] {
// CHECK: scf.if %[[RUN_DEF]] {

int classify(int k) {
  int r = 0;
  switch (k) {
  case 1:
  case 2:
    r = 10;
    break;
  case 5:
    r = 50;
  default:
    r += 1;
    break;
#ifdef MIDBREAK
  case 7:
    // MID: switch.c:[[@LINE+1]]:12: error: unsupported C construct: break before the end of a switch case
    if (r) break;
    r = 7;
#endif
  }
  return r;
}
