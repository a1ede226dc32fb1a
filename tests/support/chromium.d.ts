export declare const CHROMIUM_CANDIDATES: string[];
export declare const HEADLESS_SHELL: string;
export declare function chromiumPath(): string | undefined;
export declare function testChromiumPath(): string | undefined;
export declare const CHROMIUM_ARGS: string[];
