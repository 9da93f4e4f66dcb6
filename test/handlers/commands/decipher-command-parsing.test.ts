import { describe, expect, it } from "vitest";
import {
  changesSubscriptions,
  parseDecipherCommand,
} from "../../../src/handlers/commands/decipher-command.ts";

describe("/decipher text", () => {
  it("reads every subcommand", () => {
    expect(parseDecipherCommand("subscribe test 101")).toMatchObject({
      action: "subscribe",
      kind: "test",
      id: 101,
    });
    expect(parseDecipherCommand("subscribe collection 501 growth:10")).toEqual({
      action: "subscribe",
      kind: "collection",
      id: 501,
      ids: [501],
      growth: 10,
      mention: null,
      given: ["growth"],
    });
    expect(parseDecipherCommand("SUBSCRIBE Collection 501")).toMatchObject({ growth: null });
    expect(parseDecipherCommand("unsubscribe collection 501")).toEqual({
      action: "unsubscribe",
      kind: "collection",
      id: 501,
    });
    expect(parseDecipherCommand("digest 9:30 Europe/Berlin")).toEqual({
      action: "digest",
      time: "09:30",
      zone: "Europe/Berlin",
    });
    expect(parseDecipherCommand("digest 18:00")).toEqual({ action: "digest", time: "18:00", zone: "UTC" });
    expect(parseDecipherCommand("digest off")).toEqual({ action: "digest-off" });
    expect(parseDecipherCommand("weekly Monday 9:00 Europe/Berlin")).toEqual({
      action: "weekly",
      day: "mon",
      time: "09:00",
      zone: "Europe/Berlin",
    });
    expect(parseDecipherCommand("weekly fri 16:30")).toEqual({
      action: "weekly",
      day: "fri",
      time: "16:30",
      zone: "UTC",
    });
    expect(parseDecipherCommand("weekly off")).toEqual({ action: "weekly-off" });
    expect(parseDecipherCommand("list")).toEqual({ action: "list" });
    expect(parseDecipherCommand("status")).toEqual({ action: "status" });
    expect(parseDecipherCommand("")).toEqual({ action: "help" });
  });

  it("marks which subcommands change the channel's subscriptions", () => {
    expect(changesSubscriptions(parseDecipherCommand("subscribe test 1"))).toBe(true);
    expect(changesSubscriptions(parseDecipherCommand("digest off"))).toBe(true);
    expect(changesSubscriptions(parseDecipherCommand("weekly mon 09:00"))).toBe(true);
    expect(changesSubscriptions(parseDecipherCommand("weekly off"))).toBe(true);
    expect(changesSubscriptions(parseDecipherCommand("list"))).toBe(false);
  });

  it.each([
    ["subscribe", /`test <id>` or `collection <id>`/],
    ["subscribe test", /numeric id/],
    ["subscribe test abc", /not a test id/],
    ["subscribe test 0", /start at 1/],
    ["subscribe test 101 growth:5", /not an option of `subscribe test`/],
    ["subscribe collection 501 growth:lots", /growth:<sessions>/],
    ["unsubscribe widget 1", /`test <id>`/],
    ["digest 25:00", /time of day/],
    ["digest 09:00 Mars/Base", /not a time zone/],
    ["weekly", /`weekly mon 09:00 Europe\/Berlin`, or `weekly off`/],
    ["weekly 09:00", /`weekly mon 09:00 Europe\/Berlin`/],
    ["weekly mon 09:00 UTC extra", /`weekly mon 09:00 Europe\/Berlin`/],
    // Every problem at once.
    [
      "weekly funday 25:00 Mars/Base",
      /`funday` is not a day of the week.*`25:00` is not a time of day.*`Mars\/Base` is not a time zone/,
    ],
    ["frobnicate", /not a \/decipher command/],
  ])("explains what is wrong with %j", (text, message) => {
    expect(() => parseDecipherCommand(text)).toThrowError(message);
  });
});
