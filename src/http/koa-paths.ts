import { HEAD_AND_GET } from './unserved-methods.js';

/**
 * A path the resolver's Koa application answers, declared by the module that serves it (beside its
 * routes). The resolver's front handler reads every other GET or HEAD path as a compact identifier, so a
 * route missing here would be resolved instead of reaching Koa.
 */
export interface KoaPath {
  /** The path itself; with `under`, every path that starts with it too. */
  readonly path: string;
  readonly under?: boolean;
  /**
   * The methods served there that no router declares (a middleware matching by prefix answers them):
   * another method is answered 405 with these in Allow. Without, the path's router says for itself.
   */
  readonly methods?: readonly string[];
}

/** The resolver area's table of Koa paths (app.ts gathers it from the modules it mounts). */
export class KoaPaths {
  // Plain string arrays, walked with === and startsWith: on the front handler's hot path, a handful of
  // string comparisons cost less than hashing each request's fresh path for a Map.
  private readonly exactPaths: string[] = [];
  private readonly exact: KoaPath[] = [];
  private readonly prefixPaths: string[] = [];
  private readonly prefixes: KoaPath[] = [];

  constructor(paths: readonly KoaPath[]) {
    for (const path of paths) {
      if (path.under) {
        this.prefixPaths.push(path.path);
        this.prefixes.push(path);
      } else {
        this.exactPaths.push(path.path);
        this.exact.push(path);
      }
    }
  }

  /** The declaration covering the path; undefined for a compact identifier. */
  claimOn(path: string): KoaPath | undefined {
    const exact = this.exactPaths.indexOf(path);
    if (exact !== -1) return this.exact[exact];
    for (let i = 0; i < this.prefixPaths.length; i++) if (path.startsWith(this.prefixPaths[i]!)) return this.prefixes[i];
    return undefined;
  }

  /**
   * The methods of a path that no router declares: a compact identifier's (GET and HEAD, the front
   * handler's) and those a declaration names; undefined where the routers or middleware say for themselves.
   */
  methodsAt(path: string): readonly string[] | undefined {
    const claim = this.claimOn(path);
    return claim ? claim.methods : HEAD_AND_GET;
  }
}
