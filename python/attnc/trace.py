"""FlexAttention callables -> .attn text. `mask_mod(b, h, q_idx, kv_idx)` and
`score_mod(score, b, h, q_idx, kv_idx)` run once on symbolic proxies (`Expr`): arithmetic,
comparisons, `&` `|` `~` on booleans, torch.where, torch.tanh/exp/abs/..., and indexing of captured
tensors become an .attn expression. Captured tensors become the kernel's buffers (their values are
passed at each call, so new values need no recompile); Python numbers become its scalar arguments
(new values need no recompile either), or literals with `constants=True`.
Each torch op traced has torch's meaning exactly, or is an error (docs/python.md lists them).
What cannot be traced raises attnc.Error naming the construct.
"""

import math

import torch

from ._backend import Error


class Trace:
    """The state of one tracing run: the captured tensors, in order of first use, and the Python
    numbers, which become the kernel's scalar arguments (`constants`: literals instead)."""

    def __init__(self, constants=False, offsets=False):
        self.tensors = []  # (tensor, attn element type)
        self.numbers = []  # (value, "int" or "float"), one per distinct value and type
        self.constants = constants
        self.offsets = offsets  # the kernel takes int arguments q_off and kv_off (OFFSETS)

    def number(self, value, kind):
        """The name of the scalar argument `cN` holding `value`."""
        # Under torch.compile a number may be symbolic (Dynamo makes a changed float a graph input):
        # it has no value to compare, so one number is one argument only when it is the same object.
        compiling = torch.compiler.is_compiling()
        for i, (seen, seen_kind) in enumerate(self.numbers):
            if seen_kind == kind and (seen is value if compiling else repr(seen) == repr(value)):
                return f"c{i}"
        self.numbers.append((value, kind))
        return f"c{len(self.numbers) - 1}"

    def scalars(self):
        """The scalar arguments' values by name, as the kernel takes them."""
        # sym_float: under torch.compile a number may be symbolic (a graph input), and stays so.
        return {f"c{i}": torch.sym_float(value) for i, (value, _) in enumerate(self.numbers)}

    def describe_numbers(self):
        """`c0 = 20.0, c1 = 16`: what the scalar arguments hold in this trace."""
        return ", ".join(f"c{i} = {value!r}" for i, (value, _) in enumerate(self.numbers))

    def buffer(self, t):
        for i, (seen, _) in enumerate(self.tensors):
            if seen is t:
                return f"buf{i}"
        if t.is_floating_point():
            elem = "f32"
        elif t.dtype == torch.bool:
            elem = "bool"
        elif t.dtype in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8):
            elem = "i32"
        else:
            raise Error(f"attnc.torch cannot capture a tensor of dtype {t.dtype} (integers, floats and bools only)")
        self.tensors.append((t, elem))
        return f"buf{len(self.tensors) - 1}"

    def params(self):
        """The kernel's parameter list: `buf0: tensor<i32>[d0], ..., c0: float, ...`."""
        return ", ".join([f"buf{i}: tensor<{elem}>[{', '.join(f'd{d}' for d in range(max(t.dim(), 1)))}]"
                          for i, (t, elem) in enumerate(self.tensors)] +
                         [f"c{i}: {kind}" for i, (_, kind) in enumerate(self.numbers)] +
                         ([f"{name}: int" for name in OFFSETS] if self.offsets else []))

    def values(self):
        """The captured tensors as the kernel takes them: i32, f32 or bool, dense, 0-d as [1]. Float
        tensors keep their autograd history: a learnable ALiBi slope gets its gradient."""
        out = {}
        for i, (t, elem) in enumerate(self.tensors):
            t = t.reshape(1) if t.dim() == 0 else t
            dtype = {"i32": torch.int32, "f32": torch.float32, "bool": torch.bool}[elem]
            out[f"buf{i}"] = t.to(device="cpu", dtype=dtype).contiguous()
        return out


_TRACE = None  # the Trace of the running to_attn call

# With trace_mods(..., offsets=True) the callables see `q + q_off` and `kv + kv_off`: positions in a
# longer sequence of which the call's query and key rows are a slice (a context-parallel shard).
# They are the kernel's own int arguments, never merged with the callables' numbers by value, so
# every offset shares one kernel text.
OFFSETS = ("q_off", "kv_off")


def _literal(x):
    if isinstance(x, Expr):
        return x
    if isinstance(x, bool):
        return Expr("true" if x else "false", "bool")
    if isinstance(x, int):
        if not -(2**31) <= x < 2**31:
            raise Error(f"attnc.torch: the constant {x} does not fit the 32-bit int of .attn")
        if _TRACE is not None and not _TRACE.constants:
            return Expr(_TRACE.number(x, "int"), "int")
        return Expr(str(x) if x >= 0 else f"(-{-x})", "int")
    if isinstance(x, float):
        # A run-time argument takes any value, NaN too; only a literal must be one .attn can write.
        if _TRACE is not None and not _TRACE.constants:
            return Expr(_TRACE.number(x, "float"), "float")
        if math.isnan(x):
            raise Error("attnc.torch: a NaN constant cannot be written in .attn")
        text = "inf" if math.isinf(x) else repr(abs(x))
        if "e" not in text and "." not in text and text != "inf":
            text += ".0"
        return Expr(text if x >= 0 else f"(-{text})", "float")
    if isinstance(x, torch.Tensor):
        if x.dim() != 0:
            raise Error(f"attnc.torch: a captured tensor of shape {tuple(x.shape)} is used whole; index it "
                        f"with the index variables (t[q_idx])")
        return _index(x, (0,))
    raise Error(f"attnc.torch cannot trace a value of type {type(x).__name__} ({x!r})")


def _num(x, op):
    x = _literal(x)
    if x.type not in ("int", "float"):
        raise Error(f"attnc.torch: '{op}' takes numbers, got a bool (convert it with torch.where)")
    return x


def _arith(op, a, b):
    a, b = _num(a, op), _num(b, op)
    if op == "/":
        kind = "float"
    else:
        kind = "int" if a.type == b.type == "int" else "float"
    return Expr(f"({a.text} {op} {b.text})", kind)


def _compare(op, a, b):
    a, b = _literal(a), _literal(b)
    if (a.type == "bool") != (b.type == "bool") or (a.type == "bool" and op not in ("==", "!=")):
        raise Error(f"attnc.torch: '{op}' compares two numbers (or two bools with == and !=)")
    return Expr(f"({a.text} {op} {b.text})", "bool")


def _logic(op, a, b, name):
    a, b = _literal(a), _literal(b)
    if a.type != "bool" or b.type != "bool":
        raise Error(f"attnc.torch: '{name}' is traced only on booleans (as .attn's {op}); bitwise integer "
                    f"operations have no .attn form")
    return Expr(f"({a.text} {op} {b.text})", "bool")


def _call(fn, *args):
    args = [_num(a, fn) for a in args]
    if fn in ("abs", "min", "max", "clamp"):
        kind = "int" if all(a.type == "int" for a in args) else "float"
    else:
        kind = "float"
    return Expr(f"{fn}({', '.join(a.text for a in args)})", kind)


def _where(cond, a, b):
    cond, a, b = _literal(cond), _literal(a), _literal(b)
    if cond.type != "bool":
        raise Error("attnc.torch: torch.where needs a boolean condition")
    if (a.type == "bool") != (b.type == "bool"):
        raise Error("attnc.torch: torch.where's branches must both be numbers or both be bools")
    kind = "bool" if a.type == "bool" else ("int" if a.type == b.type == "int" else "float")
    return Expr(f"({cond.text} ? {a.text} : {b.text})", kind)


def _index(t, index):
    if _TRACE is None:
        raise Error("attnc.torch: a captured tensor is indexed outside a trace")
    index = index if isinstance(index, tuple) else (index,)
    if len(index) != max(t.dim(), 1):
        raise Error(f"attnc.torch: a captured tensor of shape {tuple(t.shape)} is indexed with {len(index)} "
                    f"index(es); index every dimension at once (t[i, j], not t[i][j])")
    parts = []
    for i in index:
        if isinstance(i, (slice, type(Ellipsis))) or i is None:
            raise Error("attnc.torch: slices, `...` and None in an index cannot be traced; index with numbers")
        e = _literal(i)
        if e.type != "int":
            raise Error("attnc.torch: a captured tensor is indexed with a non-integer")
        parts.append(e.text)
    name = _TRACE.buffer(t)
    kind = {"f32": "float", "i32": "int", "bool": "bool"}[_TRACE.tensors[int(name[3:])][1]]
    return Expr(f"{name}[{', '.join(parts)}]", kind)


def _const_like(value, dtype):
    if dtype == torch.bool:
        return _literal(bool(value))
    if dtype is not None and dtype.is_floating_point:
        return _literal(float(value))
    return _literal(value)


def _convert(x, dtype):
    x = _literal(x)
    if dtype is None or dtype == torch.bool and x.type == "bool":
        return x
    if dtype == torch.bool:
        return Expr(f"({x.text} != 0)", "bool")
    if x.type == "bool":
        x = Expr(f"({x.text} ? 1 : 0)", "int")
    if dtype.is_floating_point:
        return x if x.type == "float" else Expr(f"float({x.text})", "float")
    return x if x.type == "int" else Expr(f"int({x.text})", "int")


_UNARY = {"exp": "exp", "exp2": "exp2", "log": "log", "log2": "log2", "sqrt": "sqrt", "rsqrt": "rsqrt",
          "tanh": "tanh", "sigmoid": "sigmoid", "sin": "sin", "cos": "cos", "floor": "floor", "ceil": "ceil",
          "round": "round", "abs": "abs"}
_BINARY = {"__add__": "+", "__sub__": "-", "__mul__": "*", "__truediv__": "/", "__floordiv__": "//",
           "__mod__": "%", "add": "+", "sub": "-", "subtract": "-", "mul": "*", "multiply": "*", "div": "/",
           "divide": "/", "true_divide": "/", "floor_divide": "//", "remainder": "%"}
_COMPARE = {"__eq__": "==", "__ne__": "!=", "__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">=",
            "eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=", "greater": ">",
            "greater_equal": ">=", "less": "<", "less_equal": "<="}
_LOGIC = {"__and__": ("&&", "&"), "__or__": ("||", "|"), "logical_and": ("&&", "logical_and"),
          "logical_or": ("||", "logical_or"), "bitwise_and": ("&&", "&"), "bitwise_or": ("||", "|")}


# The names of Tensor's Python-level operators as the functions behind them spell them.
_OPERATOR_SPELLINGS = {"__rdiv__": "__rtruediv__", "__div__": "__truediv__"}


def _function_name(func):
    """The name of the torch function __torch_function__ was given. Under Dynamo, a Tensor operator
    written in Python (torch._tensor: `t / x` with a tensor on the right is Tensor.__rtruediv__)
    arrives as its wrapper, named `wrapped`, without the name functools.wraps gave it; the function
    it wraps has the name (`__rdiv__`)."""
    name = getattr(func, "__name__", str(func))
    if name == "wrapped":
        name = getattr(getattr(func, "__wrapped__", None), "__name__", name)
    return _OPERATOR_SPELLINGS.get(name, name)


def _torch_call(name, args, kwargs):
    """A torch function or Tensor method applied to proxies, as .attn; None when unknown."""
    reflected = name.startswith("__r") and name[3:-2] in ("add", "sub", "mul", "truediv", "floordiv", "mod",
                                                          "and", "or", "pow")
    if reflected:
        name, args = "__" + name[3:], (args[1], args[0])
    if name in _BINARY:
        return _arith(_BINARY[name], *args[:2])
    if name in _COMPARE:
        return _compare(_COMPARE[name], *args[:2])
    if name in _LOGIC:
        return _logic(*_LOGIC[name][:1], *args[:2], _LOGIC[name][1])
    if name in ("__invert__", "logical_not", "bitwise_not"):
        x = _literal(args[0])
        if x.type != "bool":
            raise Error("attnc.torch: '~' is traced only on booleans (as .attn's !)")
        return Expr(f"(!{x.text})", "bool")
    if name in ("__neg__", "neg", "negative"):
        x = _num(args[0], "-")
        return Expr(f"(-{x.text})", x.type)
    if name in ("__pos__", "clone", "detach", "contiguous"):
        return _literal(args[0])
    if name in _UNARY:
        return _call(_UNARY[name], args[0])
    if name in ("minimum", "min", "maximum", "max") and len(args) == 2:
        return _call("min" if name.startswith("min") else "max", *args)
    if name in ("clamp", "clip"):
        lo = kwargs.get("min", args[1] if len(args) > 1 else None)
        hi = kwargs.get("max", args[2] if len(args) > 2 else None)
        x = args[0]
        if lo is not None:
            x = _call("max", x, lo)
        if hi is not None:
            x = _call("min", x, hi)
        return _literal(x)
    if name == "where" and len(args) == 3:
        return _where(*args)
    if name == "__getitem__":
        if isinstance(args[0], torch.Tensor):
            return _index(args[0], args[1])
        raise Error("attnc.torch: an index variable or score cannot be indexed")
    if name in ("to", "type"):
        dtype = kwargs.get("dtype", next((a for a in args[1:] if isinstance(a, torch.dtype)), None))
        return _convert(args[0], dtype)
    if name in ("float", "double", "half", "bfloat16"):
        return _convert(args[0], torch.float32)
    if name in ("int", "long", "short"):
        return _convert(args[0], torch.int32)
    if name == "bool":
        return _convert(args[0], torch.bool)
    if name in ("new_ones", "new_zeros", "ones_like", "zeros_like", "full_like", "new_full"):
        value = 1 if "ones" in name else 0
        if name in ("full_like", "new_full"):
            value = kwargs.get("fill_value", args[2] if name == "new_full" else args[1])
        dtype = kwargs.get("dtype", _torch_dtype(args[0]) if name.endswith("_like") or name.startswith("new_")
                           else None)
        return _const_like(value, dtype)
    if name == "square":
        return _pow(args[0], 2)
    if name in ("pow", "__pow__", "float_power"):
        return _pow(args[0], kwargs.get("exponent", args[1] if len(args) > 1 else None))
    return None


_MAX_MULTIPLIED_POWER = 32  # integer powers up to this are written as products


def _pow(base, exponent):
    """torch.pow's meaning, exactly: an integer exponent (an int, or a float with an integral value)
    multiplies, so a negative base keeps its sign (torch.pow(s, 3) of -2 is -8); a non-integer
    constant exponent is exp(p * log(base)), NaN for a negative base as torch gives; a traced
    exponent takes a positive constant base (2 ** kv is exp2(kv)). What has no exact .attn form is
    an error, never an approximation."""
    if isinstance(exponent, (int, float)) and not isinstance(exponent, bool):
        x = _num(base, "pow")
        if isinstance(exponent, int) or float(exponent).is_integer():
            n = int(exponent)
            if x.type == "int" and n < 0:
                raise Error("attnc.torch: integers to negative integer powers are not allowed (as in torch)")
            if n == 0:
                return _literal(1 if x.type == "int" else 1.0)
            if abs(n) <= _MAX_MULTIPLIED_POWER:
                product = Expr("(" + " * ".join([x.text] * abs(n)) + ")", x.type)
            else:  # |x|^|n| with the sign of x^n: the same value, without 2^31 factors
                f = x if x.type == "float" else Expr(f"float({x.text})", "float")
                magnitude = _call("exp", _arith("*", float(abs(n)), _call("log", _call("abs", f))))
                product = _where(_compare("<", f, 0.0), Expr(f"(-{magnitude.text})", "float"), magnitude) \
                    if n % 2 else magnitude
            return _arith("/", 1.0, product) if n < 0 else product
        if math.isnan(exponent):
            raise Error("attnc.torch: a NaN exponent cannot be written in .attn")
        return _call("exp", _arith("*", float(exponent), _call("log", x)))
    if isinstance(base, (int, float)) and not isinstance(base, bool) and isinstance(exponent, Expr):
        if not base > 0:
            raise Error(f"attnc.torch: torch.pow({base!r}, traced exponent) has no exact .attn form (a base <= 0 "
                        f"with an exponent known only at run time); write it with torch.where")
        e = _num(exponent, "pow")
        if e.type == "int" and isinstance(base, int):
            raise Error("attnc.torch: an integer power with a traced exponent is an integer in torch and has no "
                        ".attn form; write the base as a float (2.0 ** x)")
        return _call("exp2", _arith("*", e, math.log2(base)))
    raise Error("attnc.torch: torch.pow of a traced base with a traced exponent has no exact .attn form; for a "
                "positive base write torch.exp(exponent * torch.log(base))")


def _torch_dtype(x):
    x = _literal(x)
    return {"bool": torch.bool, "int": torch.int32, "float": torch.float32}[x.type]


class Expr:
    """A symbolic value of a traced callable: .attn text and its type (int, float or bool)."""

    def __init__(self, text, kind):
        self.text, self.type = text, kind

    def __repr__(self):
        return f"attnc.trace.Expr({self.text!r}, {self.type})"

    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        name = _function_name(func)
        result = _torch_call(name, args, kwargs or {})
        if result is None:
            owner = "torch.Tensor." if getattr(func, "__qualname__", "").startswith("Tensor.") or name.startswith("__") \
                else "torch."
            raise Error(f"attnc.torch cannot trace {owner}{name} (supported: arithmetic, comparisons, & | ~ on "
                        f"bools, torch.where, exp/log/tanh/sigmoid/abs/..., min/max/clamp, and indexing captured "
                        f"tensors)")
        return result

    def __bool__(self):
        raise Error(f"attnc.torch cannot trace Python control flow on a traced value ({self.text}): `if`, "
                    f"`and`, `or`, `not`, chained comparisons (a < b < c) and bool() need a concrete value; "
                    f"use &, |, ~ and torch.where")

    def __index__(self):
        raise Error(f"attnc.torch cannot use a traced value ({self.text}) as a Python int (range, list "
                    f"indexing, int()): index captured tensors instead")

    def __int__(self):
        return self.__index__()

    def __float__(self):
        raise Error(f"attnc.torch cannot turn a traced value ({self.text}) into a Python float (float(), math.*): "
                    f"use torch functions")

    def __iter__(self):
        raise Error(f"attnc.torch cannot iterate over a traced value ({self.text})")

    def item(self):
        raise Error(f"attnc.torch cannot trace .item() on a traced value ({self.text}): it depends on the data "
                    f"of each call; keep it a tensor expression")

    def tolist(self):
        return self.item()

    @property
    def device(self):
        """Where a traced value lives, for code that makes constants beside it (FlexAttention's
        noop_mask: b.new_ones(..., device=b.device)): nowhere in particular, the CPU."""
        return torch.device("cpu")

    @property
    def dtype(self):
        return _torch_dtype(self)

    def __hash__(self):
        return id(self)


def _method(name):
    def method(self, *args, **kwargs):
        result = _torch_call(name, (self,) + args, kwargs)
        if result is None:
            raise Error(f"attnc.torch cannot trace torch.Tensor.{name}")
        return result

    method.__name__ = name
    return method


for _name in (list(_BINARY) + list(_COMPARE) + list(_LOGIC) + list(_UNARY) +
              ["__radd__", "__rsub__", "__rmul__", "__rtruediv__", "__rfloordiv__", "__rmod__", "__rand__",
               "__ror__", "__rpow__", "__invert__", "__neg__", "__pos__", "__abs__", "__pow__", "pow", "square",
               "__getitem__", "neg", "clamp",
               "clip", "minimum", "maximum", "to", "float", "int", "long", "bool", "new_ones", "new_zeros",
               "new_full", "logical_not", "detach", "clone", "contiguous"]):
    setattr(Expr, _name, _method("abs" if _name == "__abs__" else _name))


def trace_mods(mask_mod, score_mod, constants=False, offsets=False):
    """(mask text or None, score text or None, Trace) of the FlexAttention callables. Python
    numbers become scalar arguments `cN` (the trace's `scalars()`), so that callables that differ
    only in them share one kernel; `constants` writes them as literals instead. `offsets`: the
    callables' q_idx and kv_idx are `q + q_off` and `kv + kv_off`, with int arguments q_off and
    kv_off (OFFSETS) that the caller passes beside `scalars()`."""
    global _TRACE
    if _TRACE is not None:
        raise Error("attnc.torch: tracing is not reentrant")
    _TRACE = trace = Trace(constants, offsets)
    b, h = Expr("b", "int"), Expr("h", "int")
    q, kv = (Expr("(q + q_off)", "int"), Expr("(kv + kv_off)", "int")) if offsets else \
        (Expr("q", "int"), Expr("kv", "int"))
    try:
        mask = score = None
        if mask_mod is not None:
            m = _literal(_run(mask_mod, "mask_mod", b, h, q, kv))
            if m.type != "bool":
                raise Error(f"attnc.torch: mask_mod must return a bool, it returned an {m.type} ({m.text})")
            mask = m.text
        if score_mod is not None:
            s = _literal(_run(score_mod, "score_mod", Expr("score", "float"), b, h, q, kv))
            if s.type == "bool":
                raise Error("attnc.torch: score_mod must return a number, it returned a bool")
            score = s.text if s.type == "float" else f"float({s.text})"
        return mask, score, trace
    finally:
        _TRACE = None


def _run(fn, what, *args):
    try:
        return fn(*args)
    except Error:
        raise
    except Exception as e:  # the callable did something a proxy cannot stand for
        name = getattr(fn, "__name__", type(fn).__name__)
        raise Error(f"attnc.torch cannot trace {what} '{name}': {type(e).__name__}: {e}") from e
