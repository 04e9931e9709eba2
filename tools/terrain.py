#!/usr/bin/env python3
"""Writes a big terrain level as a Wavefront OBJ: hills, boxes and ramps.

    python3 tools/terrain.py -o out/terrain-1k.obj            # 1 km x 1 km
    python3 tools/terrain.py --size 4000 -o out/terrain-4k.obj

The level covers [0, size] x [0, size] in x and z (y up): a height field on a
2 m grid (two octaves of value noise, hills up to ~40 m, slopes below ~35°),
`size² / 250` boxes (4,000 on 1 km: crates and huts, some turned) standing in
the ground, and `size² / 25,000` platforms 3 m high, each with a ramp up to
it. Two flat plazas at height 0 are kept free of boxes: around (20, 20) and
(size - 20, size - 20), the ends of the cross-level path of
samples/terrain/. Faces wind counter-clockwise seen from outside (upward on
the ground), as `spark bake` of an OBJ expects.

Deterministic: the same arguments write the same bytes on every machine. It
uses its own integer RNG (SplitMix64), only +, -, *, / and sqrt (correctly
rounded in IEEE doubles, no libm transcendentals), and prints every number
with three decimals.

`--extra-box X,Z,HALF,HEIGHT` adds one more box at the end of the file (the
"changed box" of the distributed-bake tests: only the tiles it meets change).
Standard library only (Debian's python3).
"""

import argparse
import sys

MASK = (1 << 64) - 1
GRID = 2.0           # ground grid spacing [m]
PLAZA = 40.0         # plaza radius kept flat and free [m]


class Rng:
    """SplitMix64: a seeded integer generator, the same everywhere."""

    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self, lo, hi):
        return lo + (hi - lo) * ((self.next() >> 11) / float(1 << 53))


def lattice_value(seed, i, j):
    """A value in [-1, 1] for lattice node (i, j), from a hash of the node."""
    r = Rng(seed ^ ((i * 0x1F1F1F1F) & MASK) ^ (((j * 0x3C6EF372FE94F82B) & MASK) << 1))
    return (r.next() >> 11) / float(1 << 52) - 1.0


def smooth(t):
    return t * t * (3.0 - 2.0 * t)


class Terrain:
    def __init__(self, size, seed):
        self.size = size
        self.octaves = []  # (wavelength, amplitude, lattice table)
        for k, (wave, amp) in enumerate(((200.0, 20.0), (50.0, 3.0))):
            n = int(size / wave) + 2
            table = [[lattice_value(seed + 101 * k, i, j) for j in range(n)] for i in range(n)]
            self.octaves.append((wave, amp, table))
        self.plazas = ((20.0, 20.0), (size - 20.0, size - 20.0))

    def plaza_weight(self, x, z):
        """0 on a plaza, rising smoothly to 1 from PLAZA to 2 * PLAZA away."""
        w = 1.0
        for px, pz in self.plazas:
            d = ((x - px) ** 2 + (z - pz) ** 2) ** 0.5
            t = min(max((d - PLAZA) / PLAZA, 0.0), 1.0)
            w = min(w, smooth(t))
        return w

    def height(self, x, z):
        h = 0.0
        for wave, amp, table in self.octaves:
            fx, fz = x / wave, z / wave
            i, j = int(fx), int(fz)
            tx, tz = smooth(fx - i), smooth(fz - j)
            a = table[i][j] + (table[i + 1][j] - table[i][j]) * tx
            b = table[i][j + 1] + (table[i + 1][j + 1] - table[i][j + 1]) * tx
            h += amp * (a + (b - a) * tz)
        return h * self.plaza_weight(x, z)


class Obj:
    def __init__(self):
        self.vertices = []  # formatted "x y z"
        self.faces = []     # (a, b, c), 1-based

    def vertex(self, x, y, z):
        self.vertices.append("%.3f %.3f %.3f" % (x, y, z))
        return len(self.vertices)

    def solid(self, points, faces):
        """A convex solid: its faces (vertex index lists) wound outward here."""
        cx = sum(p[0] for p in points) / len(points)
        cy = sum(p[1] for p in points) / len(points)
        cz = sum(p[2] for p in points) / len(points)
        ids = [self.vertex(*p) for p in points]
        for face in faces:
            for k in range(1, len(face) - 1):
                a, b, c = face[0], face[k], face[k + 1]
                pa, pb, pc = points[a], points[b], points[c]
                ux, uy, uz = pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]
                vx, vy, vz = pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]
                nx, ny, nz = uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx
                out = nx * (pa[0] - cx) + ny * (pa[1] - cy) + nz * (pa[2] - cz)
                if out < 0:
                    b, c = c, b
                self.faces.append((ids[a], ids[b], ids[c]))


BOX_FACES = ((0, 1, 2, 3), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))


def box(obj, cx, cz, hx, hz, y0, y1, c=1.0, s=0.0):
    """A box of half extents (hx, hz) turned by (cos, sin) = (c, s), from y0 to y1."""
    corners = []
    for y in (y0, y1):
        for dx, dz in ((-hx, -hz), (hx, -hz), (hx, hz), (-hx, hz)):
            corners.append((cx + c * dx - s * dz, y, cz + s * dx + c * dz))
    obj.solid(corners, BOX_FACES)


def ground_range(terrain, cx, cz, reach):
    """Lowest and highest ground under a square of half edge `reach`."""
    hs = [terrain.height(min(max(cx + dx, 0.0), terrain.size), min(max(cz + dz, 0.0), terrain.size))
          for dx in (-reach, 0.0, reach) for dz in (-reach, 0.0, reach)]
    return min(hs), max(hs)


def build(size, seed, extra_boxes):
    terrain = Terrain(size, seed)
    obj = Obj()
    rng = Rng(seed)

    # The ground: (n + 1)² vertices, two triangles per grid square, upward.
    n = int(size / GRID)
    for j in range(n + 1):
        for i in range(n + 1):
            obj.vertex(i * GRID, terrain.height(i * GRID, j * GRID), j * GRID)
    for j in range(n):
        for i in range(n):
            a = j * (n + 1) + i + 1
            b, c, d = a + 1, a + n + 1, a + n + 2
            obj.faces.append((a, c, b))
            obj.faces.append((b, c, d))

    def clear_of_plazas(x, z, reach):
        return all(((x - px) ** 2 + (z - pz) ** 2) ** 0.5 > 2.0 * PLAZA + reach for px, pz in terrain.plazas)

    # Boxes: crates and huts, standing 0.5 m into the ground.
    boxes = int(size * size / 250)
    placed = 0
    while placed < boxes:
        x, z = rng.uniform(5.0, size - 5.0), rng.uniform(5.0, size - 5.0)
        hx, hz, tall = rng.uniform(0.4, 2.5), rng.uniform(0.4, 2.5), rng.uniform(0.8, 4.0)
        a, b = rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 1.0)
        if not clear_of_plazas(x, z, 4.0):
            continue
        r = (a * a + b * b) ** 0.5
        c, s = (a / r, b / r) if 0.1 < r <= 1.0 else (1.0, 0.0)
        lo, hi = ground_range(terrain, x, z, max(hx, hz) * 1.5)
        box(obj, x, z, hx, hz, lo - 0.5, hi + tall, c, s)
        placed += 1

    # Platforms 3 m above their highest ground, each with a ramp (a wedge
    # 8 m long, 20°) up to it from the -x side.
    ramps = int(size * size / 25000)
    placed = 0
    while placed < ramps:
        x, z = rng.uniform(30.0, size - 30.0), rng.uniform(30.0, size - 30.0)
        if not clear_of_plazas(x, z, 20.0):
            continue
        lo, hi = ground_range(terrain, x - 6.0, z, 10.0)
        top = hi + 3.0
        box(obj, x, z, 3.0, 3.0, lo - 0.5, top)
        x0, x1, foot = x - 3.0 - 8.0, x - 3.0, lo - 0.5
        rise = hi + 0.1  # the ramp's foot is at the highest ground, so it never ends under it
        wedge = [(x0, foot, z - 1.5), (x1, foot, z - 1.5), (x1, foot, z + 1.5), (x0, foot, z + 1.5),
                 (x0, rise, z - 1.5), (x1, top, z - 1.5), (x1, top, z + 1.5), (x0, rise, z + 1.5)]
        obj.solid(wedge, BOX_FACES)
        placed += 1

    for x, z, half, tall in extra_boxes:
        lo, hi = ground_range(terrain, x, z, half * 1.5)
        box(obj, x, z, half, half, lo - 0.5, hi + tall)
    return obj


def parse_box(text):
    try:
        parts = [float(v) for v in text.split(",")]
    except ValueError:
        parts = []
    if len(parts) != 4 or parts[2] <= 0 or parts[3] <= 0:
        raise argparse.ArgumentTypeError("--extra-box takes X,Z,HALF,HEIGHT (metres, HALF and HEIGHT > 0)")
    return tuple(parts)


def main():
    parser = argparse.ArgumentParser(description="Write a big terrain level (hills, boxes, ramps) as an OBJ.")
    parser.add_argument("-o", "--output", required=True, help="OBJ file to write")
    parser.add_argument("--size", type=float, default=1000.0, help="edge of the square level [m], 100..16000")
    parser.add_argument("--seed", type=int, default=20261206, help="RNG seed")
    parser.add_argument("--extra-box", type=parse_box, action="append", default=[], metavar="X,Z,HALF,HEIGHT",
                        help="add one more box (repeatable)")
    args = parser.parse_args()
    if not 100.0 <= args.size <= 16000.0 or args.size % GRID != 0:
        parser.error("--size must be a multiple of 2 within 100..16000 m")
    obj = build(args.size, args.seed, args.extra_box)
    with open(args.output, "w", encoding="ascii", newline="\n") as f:
        f.write("# spark tools/terrain.py --size %g --seed %d\n" % (args.size, args.seed))
        f.write("".join("v %s\n" % v for v in obj.vertices))
        f.write("".join("f %d %d %d\n" % face for face in obj.faces))
    print("%s: %d vertices, %d triangles" % (args.output, len(obj.vertices), len(obj.faces)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
