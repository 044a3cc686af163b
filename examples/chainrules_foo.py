"""The ChainRules documentation example, foo(x) = asin(0.2 + sin(x)), differentiated three ways at x = 3."""
import runtime
import generated
from runtime import NoTangent, frule, rrule


def main(x=3.0):
    # reverse mode, chaining rrules by hand
    a, pb_sin = rrule(generated.sin, x)
    y, pb_asin = rrule(generated.asin, 0.2 + a)
    _, db = pb_asin(1.0)
    _, dx_rrule = pb_sin(db)
    # forward mode, chaining frules by hand
    a, da = frule((NoTangent(), 1.0), generated.sin, x)
    _, dx_frule = frule((NoTangent(), da), generated.asin, 0.2 + a)
    # through grad
    dx_grad = runtime.grad(lambda v: generated.asin(0.2 + generated.sin(v)))(x)
    for how, v in (("rrules by hand", dx_rrule), ("frules by hand", dx_frule), ("grad", dx_grad)):
        print(f"{how:>15}: {float(v)!r}")
    return float(dx_rrule), float(dx_frule), float(dx_grad)


if __name__ == "__main__":
    main()
