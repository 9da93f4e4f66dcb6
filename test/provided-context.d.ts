declare module "vitest" {
  interface ProvidedContext {
    emulatorUrl: string;
    slackUrl: string;
  }
}

export {};
