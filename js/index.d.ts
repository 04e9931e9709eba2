// Types of spark-nav (index.js): Spark's navigation C API over WebAssembly.

export type Vec3 = [number, number, number] | Float32Array;

/** Bake settings (spark_nav_bake_settings; any left out keeps its default). */
export interface BakeSettings {
  cellSize?: number; cellHeight?: number; agentRadius?: number; agentHeight?: number; stepHeight?: number;
  maxSlopeDeg?: number; maxSimplificationError?: number; maxEdgeLen?: number; maxVertsPerPoly?: number;
  minRegionArea?: number; mergeRegionArea?: number;
  /** Cells per square tile; 0 = one grid. */ tileSize?: number;
  /** Threads baking tiles; 0 = the hardware's (the mesh is the same for any count). */ threads?: number;
}

export interface PathResult {
  /** Corner points, x, y, z each. */
  points: Float32Array;
  length: number;
  /** False when the goal was not reachable (the path ends at the closest reachable point). */
  complete: boolean;
}

export type AgentState = 'idle' | 'moving' | 'arrived' | 'no_path' | 'off_mesh';

export interface Mesh {
  readonly polygonCount: number;
  /** XXH3-64 of the mesh's canonical bytes: the native library's hash of the same bake. */
  hash(): bigint;
  path(from: Vec3, to: Vec3, halfExtents?: Vec3, capacity?: number): PathResult;
  nearest(point: Vec3, halfExtents?: Vec3): number[];
  /** Frees the mesh in the module's memory (meshes are not garbage-collected). */
  destroy(): void;
}

export declare class World {
  constructor();
  putMesh(name: string, mesh: Mesh): bigint;
  addAgent(meshId: bigint, position: Vec3): bigint;
  setTarget(agentId: bigint, target: Vec3): void;
  agent(agentId: bigint): { position: number[]; velocity: number[]; state: AgentState };
  step(dt: number): void;
  hash(): bigint;
  destroy(): void;
}

export interface SparkNav {
  version(): string;
  bake(vertices: Float32Array, indices: Uint32Array, settings?: BakeSettings, oneSided?: boolean): Mesh;
  World: typeof World;
  SparkNavError: typeof SparkNavError;
}

export declare class SparkNavError extends Error {
  /** The spark_nav_result value (1 invalid argument, 3 off mesh, 4 no geometry, ...). */
  code: number;
}

export interface LoadOptions {
  /** The module factory (in a browser: the global createSparkNavModule of dist/spark_nav.js). */
  createModule?: () => Promise<unknown>;
  /** Where spark_nav.js is (node; default ./dist/spark_nav.js). */
  modulePath?: string;
}

export declare function load(options?: LoadOptions): Promise<SparkNav>;
