/* @NAME@'s API: plain C, no cpudispatch header. */
#ifndef @NAME@_H_
#define @NAME@_H_
#ifdef __cplusplus
extern "C" {
#endif
/* x + @ADD@, computed by the best kernel of @NAME@ for this CPU. */
int @NAME@_compute(int x);
/* The target that kernel was built for ("AVX2", "baseline", ...). */
const char *@NAME@_target(void);
#ifdef __cplusplus
}
#endif
#endif
