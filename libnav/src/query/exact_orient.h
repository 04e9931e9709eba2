#pragma once
/// \file exact_orient.h
/// The exact sign of the 2D orientation (b − a) × (c − a) for points given in
/// double (private to libnav: the any-angle search and the mesh's turn table).
///
/// Shewchuk's orient2d: the determinant in double first, its sign taken when
/// it exceeds the bound on its rounding error (almost always); then, on a
/// fine grid (coordinates multiples of 1/256), that sign, exact there; then, when the
/// differences and the two products are exact (points on a line of a grid
/// map), their comparison; otherwise the determinant is summed exactly as an expansion of doubles
/// (differences by two-diff, products by Dekker's two-product, which needs no FMA, the terms by
/// grow-expansion) and the sign of its largest component returned. Exact for every finite input whose
/// products do not overflow or underflow (any mesh coordinates of sane scale), so a point on a line is seen
/// on it and never a rounding's width to either side.

#include <cmath>
#include <cstdint>

namespace spark::nav::detail
{

namespace exact
{

/// x + y = a + b exactly.
inline void twoSum(double a, double b, double& x, double& y)
{
    x = a + b;
    const double bv = x - a, av = x - bv;
    y = (a - av) + (b - bv);
}

/// x + y = a − b exactly.
inline void twoDiff(double a, double b, double& x, double& y)
{
    x = a - b;
    const double bv = a - x, av = x + bv;
    y = (a - av) + (bv - b);
}

inline void split(double a, double& hi, double& lo)
{
    const double c = 134217729.0 * a; // 2^27 + 1
    hi = c - (c - a);
    lo = a - hi;
}

/// x + y = a × b exactly (Dekker).
inline void twoProduct(double a, double b, double& x, double& y)
{
    x = a * b;
    double ah, al, bh, bl;
    split(a, ah, al);
    split(b, bh, bl);
    const double e1 = x - ah * bh, e2 = e1 - al * bh, e3 = e2 - ah * bl;
    y = al * bl - e3;
}

/// The sign of (a0 + a1)(b0 + b1) − (c0 + c1)(d0 + d1), summed exactly.
inline int signOfProducts(double a0, double a1, double b0, double b1, double c0, double c1, double d0,
                          double d1)
{
    double terms[16];
    int n = 0;
    auto product = [&](double u, double v, double sign)
    {
        double x, y;
        twoProduct(u, v, x, y);
        terms[n++] = sign * x;
        terms[n++] = sign * y;
    };
    product(a0, b0, 1.0), product(a0, b1, 1.0), product(a1, b0, 1.0), product(a1, b1, 1.0);
    product(c0, d0, -1.0), product(c0, d1, -1.0), product(c1, d0, -1.0), product(c1, d1, -1.0);
    // Grow-expansion: e holds non-overlapping components, smallest first.
    double e[17];
    int m = 0;
    for (int t = 0; t < n; ++t)
    {
        double q = terms[t];
        int k = 0;
        for (int i = 0; i < m; ++i)
        {
            double x, y;
            twoSum(q, e[i], x, y);
            q = x;
            if (y != 0.0)
                e[k++] = y;
        }
        if (q != 0.0)
            e[k++] = q;
        m = k;
    }
    return m == 0 ? 0 : (e[m - 1] > 0.0 ? 1 : -1);
}

} // namespace exact

/// True when v is a multiple of 1/256 below 2^17 in size (a grid map's coordinates).
inline bool onFineGrid(double v)
{
    const double s = v * 256.0;
    return std::fabs(s) < 33554432.0 && double(static_cast<int64_t>(s)) == s;
}

/// orientExact past the filter: `det` is the determinant in double.
[[gnu::noinline]] inline int orientExactSlow(double ax, double az, double bx, double bz, double cx, double cz,
                                             double det)
{
    // A point equal to one of the line's (a ray's end seen from its own ray: the common case).
    if ((cx == ax && cz == az) || (cx == bx && cz == bz) || (ax == bx && az == bz))
        return 0;
    // On a fine grid the differences are multiples of 1/256 below 2^26 and
    // the products multiples of 2^-16 below 2^52: all exact, so is det's sign.
    if (onFineGrid(ax) && onFineGrid(az) && onFineGrid(bx) && onFineGrid(bz) && onFineGrid(cx) &&
        onFineGrid(cz))
        return det > 0.0 ? 1 : (det < 0.0 ? -1 : 0);
    double acx0, acx1, bcz0, bcz1, acz0, acz1, bcx0, bcx1;
    exact::twoDiff(ax, cx, acx0, acx1);
    exact::twoDiff(bz, cz, bcz0, bcz1);
    exact::twoDiff(az, cz, acz0, acz1);
    exact::twoDiff(bx, cx, bcx0, bcx1);
    if (acx1 == 0.0 && bcz1 == 0.0 && acz1 == 0.0 && bcx1 == 0.0)
    {
        // Exact differences (the common case on a grid, where points lie on
        // rays exactly): when the two products are exact too, so is comparing them.
        double l0, l1, r0, r1;
        exact::twoProduct(acx0, bcz0, l0, l1);
        exact::twoProduct(acz0, bcx0, r0, r1);
        if (l1 == 0.0 && r1 == 0.0)
            return l0 > r0 ? 1 : (l0 < r0 ? -1 : 0);
    }
    return exact::signOfProducts(acx0, acx1, bcz0, bcz1, acz0, acz1, bcx0, bcx1);
}

/// The sign of (b − a) × (c − a) in the (x, z) plane: 1 when c lies to the
/// left of the line a → b, −1 to the right, 0 exactly on it.
[[gnu::always_inline]] inline int orientExact(double ax, double az, double bx, double bz, double cx,
                                              double cz)
{
    const double l = (ax - cx) * (bz - cz), r = (az - cz) * (bx - cx);
    const double det = l - r;
    const double bound = 3.3306690738754716e-16 * (std::fabs(l) + std::fabs(r));
    if (det > bound)
        return 1;
    if (-det > bound)
        return -1;
    return orientExactSlow(ax, az, bx, bz, cx, cz, det);
}

/// The determinant (b − a) × (c − a) in double, with its sign made exact: the
/// double value when its sign is certain, else ±(its size, at least the
/// smallest normal double) with the exact sign, or 0 exactly on the line.
/// (For callers that interpolate between such values.)
[[gnu::always_inline]] inline double orientValue(double ax, double az, double bx, double bz, double cx,
                                                 double cz)
{
    const double l = (ax - cx) * (bz - cz), r = (az - cz) * (bx - cx);
    const double det = l - r;
    const double bound = 3.3306690738754716e-16 * (std::fabs(l) + std::fabs(r));
    if (det > bound || -det > bound)
        return det;
    const int sign = orientExactSlow(ax, az, bx, bz, cx, cz, det);
    const double size = std::fmax(std::fabs(det), 2.2250738585072014e-308);
    return sign > 0 ? size : (sign < 0 ? -size : 0.0);
}

} // namespace spark::nav::detail
