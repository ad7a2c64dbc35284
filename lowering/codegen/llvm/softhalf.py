"""f16 conversions for targets without them in hardware, defined in the model's own object.

On a CPU with no half-precision conversion instructions (RISC-V without Zfh/Zfhmin, x86-64
without F16C), LLVM turns every f16 <-> f32/f64 conversion into a call to `__extendhfsf2`,
`__truncsfhf2` or `__truncdfhf2`, which the C compiler's support library (libgcc,
compiler-rt) is expected to provide; GCC's has them only from version 13 on RISC-V and 12 on
x86-64, so an artifact built for such a CPU would not link with an older cross compiler
(Debian 12's riscv64 one is GCC 12). The module therefore defines them itself: `weak` (a
library's own definition, where there is one, wins; two artifacts in one program do not
clash) and `hidden` (a shared library does not export them). Their bodies are integer and
f32/f64 code only, never a half conversion, so they cannot call themselves.

Rounding is to nearest, ties to even, as the hardware's; NaNs stay quiet NaNs with the top
bits of their payload; values past the largest half become infinities. f64 to f16 rounds once,
from the double itself. Subnormal results come from adding a magic number whose ulp is the
half's smallest subnormal (2^-24): 0.5 for f32, 2^28 for f64, so the FPU rounds.
"""
from __future__ import annotations

import string
import struct

_TEXT = r"""
define weak hidden float @__extendhfsf2(half %h) {
entry:
  %hb = bitcast half %h to i16
  %x = zext i16 %hb to i32
  %sign = shl i32 %x, 16
  %s = and i32 %sign, 2147483648
  %e = lshr i32 %x, 10
  %exp = and i32 %e, 31
  %man = and i32 %x, 1023
  %is_special = icmp eq i32 %exp, 31
  %is_small = icmp eq i32 %exp, 0
  br i1 %is_special, label %special, label %finite
special:                                     ; inf or NaN (a quiet one, its payload kept)
  %m13 = shl i32 %man, 13
  %sp0 = or i32 %m13, $F32_INF
  %is_nan = icmp ne i32 %man, 0
  %quiet = select i1 %is_nan, i32 $F32_QUIET, i32 0
  %sp = or i32 %sp0, %quiet
  br label %done
finite:
  br i1 %is_small, label %small, label %normal
small:                                       ; zero or subnormal: man * 2^-24, exactly
  %mf = uitofp i32 %man to float
  %sv = fmul float %mf, $TWO_M24
  %sb = bitcast float %sv to i32
  br label %done
normal:
  %e2 = add i32 %exp, 112
  %e3 = shl i32 %e2, 23
  %m2 = shl i32 %man, 13
  %nb = or i32 %e3, %m2
  br label %done
done:
  %mag = phi i32 [ %sp, %special ], [ %sb, %small ], [ %nb, %normal ]
  %r = or i32 %mag, %s
  %rf = bitcast i32 %r to float
  ret float %rf
}

define weak hidden half @__truncsfhf2(float %f) {
entry:
  %bits = bitcast float %f to i32
  %sh = lshr i32 %bits, 16
  %sign = and i32 %sh, 32768
  %abs = and i32 %bits, 2147483647
  %is_nan = icmp ugt i32 %abs, $F32_INF
  br i1 %is_nan, label %nan, label %number
nan:
  %nm = lshr i32 %abs, 13
  %nm2 = and i32 %nm, 1023
  %nq = or i32 %nm2, $H_QNAN               ; a quiet NaN
  br label %done
number:
  %is_inf = icmp uge i32 %abs, $F32_65520   ; 65520 and up round to infinity
  br i1 %is_inf, label %inf, label %finite
inf:
  br label %done
finite:
  %is_normal = icmp uge i32 %abs, $F32_MIN_NORMAL ; 2^-14, the smallest normal half
  br i1 %is_normal, label %normal, label %small
normal:
  %t = sub i32 %abs, $F32_REBIAS            ; the exponent rebiased: 112 << 23
  %odd0 = lshr i32 %t, 13
  %odd = and i32 %odd0, 1
  %t1 = add i32 %t, $F32_ROUND
  %t2 = add i32 %t1, %odd
  %nr = lshr i32 %t2, 13
  br label %done
small:
  %af = bitcast i32 %abs to float
  %sum = fadd float %af, 5.000000e-01
  %sumb = bitcast float %sum to i32
  %sr = sub i32 %sumb, $F32_HALF            ; the bits of 0.5
  br label %done
done:
  %mag = phi i32 [ %nq, %nan ], [ $H_INF, %inf ], [ %nr, %normal ], [ %sr, %small ]
  %r = or i32 %mag, %sign
  %r16 = trunc i32 %r to i16
  %h = bitcast i16 %r16 to half
  ret half %h
}

define weak hidden half @__truncdfhf2(double %d) {
entry:
  %bits = bitcast double %d to i64
  %sh = lshr i64 %bits, 48
  %sign = and i64 %sh, 32768
  %abs = and i64 %bits, 9223372036854775807
  %is_nan = icmp ugt i64 %abs, $F64_INF
  br i1 %is_nan, label %nan, label %number
nan:
  %nm = lshr i64 %abs, 42
  %nm2 = and i64 %nm, 1023
  %nq = or i64 %nm2, $H_QNAN
  br label %done
number:
  %is_inf = icmp uge i64 %abs, $F64_65520
  br i1 %is_inf, label %inf, label %finite
inf:
  br label %done
finite:
  %is_normal = icmp uge i64 %abs, $F64_MIN_NORMAL
  br i1 %is_normal, label %normal, label %small
normal:
  %t = sub i64 %abs, $F64_REBIAS            ; 1008 << 52
  %odd0 = lshr i64 %t, 42
  %odd = and i64 %odd0, 1
  %t1 = add i64 %t, $F64_ROUND
  %t2 = add i64 %t1, %odd
  %nr = lshr i64 %t2, 42
  br label %done
small:
  %ad = bitcast i64 %abs to double
  %sum = fadd double %ad, $TWO_28
  %sumb = bitcast double %sum to i64
  %sr = sub i64 %sumb, $F64_TWO_28
  br label %done
done:
  %mag = phi i64 [ %nq, %nan ], [ $H_INF, %inf ], [ %nr, %normal ], [ %sr, %small ]
  %r = or i64 %mag, %sign
  %r16 = trunc i64 %r to i16
  %h = bitcast i16 %r16 to half
  ret half %h
}
"""


def _bits(fmt: str, value: float) -> int:
    return int.from_bytes(struct.pack("<" + fmt, value), "little")


HALF_CONVERSIONS = string.Template(_TEXT).substitute(
    F32_INF=0x7F800000, F32_QUIET=0x00400000, F32_65520=_bits("f", 65520.0),
    F32_MIN_NORMAL=_bits("f", 2.0 ** -14), F32_REBIAS=112 << 23, F32_ROUND=(1 << 12) - 1,
    F32_HALF=_bits("f", 0.5), TWO_M24=f"0x{_bits('d', 2.0 ** -24):016X}",
    F64_INF=0x7FF0000000000000, F64_65520=_bits("d", 65520.0), F64_MIN_NORMAL=_bits("d", 2.0 ** -14),
    F64_REBIAS=1008 << 52, F64_ROUND=(1 << 41) - 1, TWO_28=f"0x{_bits('d', 2.0 ** 28):016X}",
    F64_TWO_28=_bits("d", 2.0 ** 28), H_QNAN=0x7E00, H_INF=0x7C00)

