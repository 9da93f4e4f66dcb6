import type { AiSummary, RunStatus, TemplateName, UserProfile } from "../model.ts";

/** Static facts of the two demo organizations; generate-org.ts turns them into records. */
export type UserSpec = UserProfile & { sessions: number; recent: number };
export type RunPlanSpec = { everyHours: number; count: number; statusAt: (index: number) => RunStatus };
export type TestSpec = { id: number; name: string; steps: number; runs: RunPlanSpec; failures: string[] };
export type CollectionSpec = {
  id: number;
  type: string;
  rootCause: string;
  shortenedPath: string;
  isResolved: boolean;
  createdDaysAgo: number;
  /** Member sessions come from this age range (hours) with this probability each. */
  memberAgeHours: [number, number];
  memberChance: number;
  aiSummary: AiSummary;
};
export type Template = {
  name: TemplateName;
  orgName: string;
  siteUrl: string;
  firstRunId: number;
  firstTestId: number;
  paths: string[];
  users: UserSpec[];
  tests: TestSpec[];
  collections: CollectionSpec[];
};

const user = (
  userEmail: string,
  userUsername: string,
  countryCode: string,
  extra: Partial<UserProfile> & { sessions: number; recent: number },
): UserSpec => ({
  userEmail,
  userUsername,
  countryCode,
  userId: `usr_${userEmail.split("@")[0]?.replace(/[^a-z0-9]/gi, "_") || "anon"}`,
  userAccount: "Acme Retail",
  userPlan: "business",
  userRole: "member",
  ...extra,
});

const acme: Template = {
  name: "acme",
  orgName: "Acme",
  siteUrl: "https://shop.acme.test",
  firstRunId: 10001,
  firstTestId: 104,
  paths: [
    "/",
    "/products",
    "/products/rocket-skates",
    "/cart",
    "/checkout",
    "/checkout/payment",
    "/account",
    "/search?q=anvil",
  ],
  users: [
    user("jane@acme.com", "Jane Doe", "US", {
      userRole: "admin",
      userPlan: "enterprise",
      sessions: 32,
      recent: 6,
    }),
    user("jane+qa@acme.com", "Jane Doe (QA)", "US", {
      userId: "usr_jane_qa",
      userRole: "tester",
      sessions: 5,
      recent: 2,
    }),
    user("józef@acme.com", "Józef Wiśniewski", "PL", { userId: "usr_jozef", sessions: 6, recent: 2 }),
    user("yamada.taro@acme.com", "山田太郎", "JP", { sessions: 5, recent: 2 }),
    user("王芳@acme.com", "王芳", "CN", {
      userId: "usr_wang_fang",
      userAccount: "Acme Asia",
      sessions: 4,
      recent: 2,
    }),
    user("bob@acme.com", "Bob Smith", "GB", { userPlan: "free", sessions: 8, recent: 3 }),
    user("maria.garcia@acme.com", "María García", "ES", { sessions: 7, recent: 2 }),
    user("priya@acme.com", "Priya Patel", "IN", { userAccount: "Acme Labs", sessions: 6, recent: 2 }),
  ],
  tests: [
    {
      id: 101,
      name: "Checkout flow",
      steps: 12,
      // Mostly passing, with a recent failure just before the newest (passing) run.
      runs: { everyHours: 8, count: 30, statusAt: (i) => (i === 1 || i === 9 ? "failed" : "passed") },
      failures: [
        "Payment form did not submit: the 'Pay now' button stayed disabled",
        "Order confirmation page showed an empty cart",
      ],
    },
    {
      id: 102,
      name: "Login with SSO",
      steps: 8,
      // Failing for its last five runs.
      runs: { everyHours: 6, count: 24, statusAt: (i) => (i < 5 || i === 12 ? "failed" : "passed") },
      failures: [
        "SSO redirect returned 500 from the identity provider callback",
        "Login page never finished loading: spinner shown for 30 s",
      ],
    },
    {
      id: 103,
      name: "Search & filters",
      steps: 15,
      // The newest run is still running.
      runs: {
        everyHours: 12,
        count: 12,
        statusAt: (i) => (i === 0 ? "running" : i === 3 ? "failed" : "passed"),
      },
      failures: ["Price filter 'Under $50' returned items costing $89"],
    },
  ],
  collections: [
    {
      id: 501,
      type: "javascript_error",
      rootCause: "TypeError: Cannot read properties of undefined (reading 'token') in PaymentForm.submit",
      shortenedPath: "/checkout/payment",
      isResolved: false,
      createdDaysAgo: 6,
      memberAgeHours: [0.2, 120],
      memberChance: 0.6,
      aiSummary: {
        category: "Functional error",
        behavior: "The user clicks 'Pay now' repeatedly; nothing happens and no error is shown.",
        productFeature: "Checkout payment",
        errorText: "TypeError: Cannot read properties of undefined (reading 'token')",
        reasoning:
          "The payment provider's script loads after the form mounts, so the tokenizer is undefined when the user submits quickly.",
      },
    },
    {
      id: 502,
      type: "network_error",
      rootCause: "GET /api/cart answered 502 while a deploy was rolling out",
      shortenedPath: "/cart",
      isResolved: true,
      createdDaysAgo: 12,
      memberAgeHours: [72, 260],
      memberChance: 0.3,
      aiSummary: {
        category: "Network error",
        behavior: "The cart page shows 'Something went wrong' and the user reloads it.",
        productFeature: "Cart",
        errorText: "502 Bad Gateway from /api/cart",
        reasoning:
          "Errors cluster in the minutes of each deploy; the load balancer drained instances too early.",
      },
    },
  ],
};

const globex: Template = {
  name: "globex",
  orgName: "Globex",
  siteUrl: "https://portal.globex.test",
  firstRunId: 20001,
  firstTestId: 202,
  paths: ["/", "/onboarding/step-1", "/onboarding/step-2", "/dashboard", "/settings"],
  users: [
    user("hank@globex.com", "Hank Scorpio", "US", {
      userAccount: "Globex Corporation",
      userRole: "owner",
      sessions: 7,
      recent: 2,
    }),
    user("frank@globex.com", "Frank Grimes", "US", {
      userAccount: "Globex Corporation",
      sessions: 5,
      recent: 2,
    }),
    user("jane@globex.com", "Jane Roe", "CA", { userAccount: "Globex Corporation", sessions: 4, recent: 1 }),
  ],
  tests: [
    {
      id: 201,
      name: "Onboarding wizard",
      steps: 10,
      runs: { everyHours: 24, count: 10, statusAt: (i) => (i === 0 || i === 4 ? "failed" : "passed") },
      failures: ["Step 2 'Invite your team' crashed with a blank screen"],
    },
  ],
  collections: [
    {
      id: 601,
      type: "javascript_error",
      rootCause: "ReferenceError: wizardState is not defined",
      shortenedPath: "/onboarding/step-2",
      isResolved: false,
      createdDaysAgo: 4,
      memberAgeHours: [0.3, 90],
      memberChance: 0.7,
      aiSummary: {
        category: "Functional error",
        behavior: "The wizard goes blank after 'Next' on step 2.",
        productFeature: "Onboarding",
        errorText: "ReferenceError: wizardState is not defined",
        reasoning: "A lazy-loaded chunk references a global that the new bundle renamed.",
      },
    },
  ],
};

export const templates: Record<TemplateName, Template> = { acme, globex };
export const demoKeys: Record<TemplateName, string> = { acme: "dcp_demo_acme", globex: "dcp_demo_globex" };

export const browsers = ["Chrome 131", "Chrome 131", "Firefox 133", "Safari 18.1", "Edge 131"];
export const devices = ["Desktop", "Desktop", "Mobile", "Tablet"];
export const triggers = ["schedule", "schedule", "schedule", "manual", "api", "github-actions"];
export const clickTypes = ["click", "click", "click", "click", "rage_click", "dead_click"];
export const tagPool = [
  { tag: "frustration", reasoning: "Repeated clicks on an element that did not respond." },
  { tag: "checkout", reasoning: "The session reached the checkout pages." },
  { tag: "slow-page", reasoning: "A page took more than five seconds to become interactive." },
  { tag: "new-user", reasoning: "First session recorded for this user." },
  { tag: "error", reasoning: "A JavaScript error was captured during the session." },
  { tag: "abandoned-cart", reasoning: "Items were added to the cart but no order was placed." },
];
