/** A user. */
export interface User {
  id: number;
  name?: string;
}

export type ID = string | number;

enum Color { Red, Green }

/** Service does things. */
@Injectable()
export abstract class Service<T> implements Base {
  private readonly cache = new Map<string, T>();

  constructor(private http: Http) {}

  /** Loads one. */
  @Log()
  async load(id: ID): Promise<T | undefined> {
    return this.cache.get(String(id));
  }

  abstract save(item: T): void;

  handle = (x: number): number => x * 2;
}

export function overload(a: string): string;
export function overload(a: number): number;
export function overload(a: any): any {
  return a;
}

namespace Util {
  export function helper(): void {}
}

declare module "ext" {
  export function g(): void;
}

export const fetcher = async <T,>(url: string): Promise<T> => {
  const r = await fetch(url);
  return r.json();
};
