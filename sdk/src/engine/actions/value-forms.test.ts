import { describe, expect, it } from "vitest";
import { canonicalValue, parseColor, parseDate, parseDateTime, parseMonth, parseNumber, parseTime, parseWeek } from "./value-forms.js";

describe("value forms", () => {
  it("reads dates in ISO, US, European and month-name forms, and refuses impossible ones", () => {
    for (const s of ["2011-09-13", "2011/9/13", "09/13/2011", "9/13/11", "13/09/2011", "13.09.2011", "Sep 13, 2011", "September 13 2011", "13 September 2011", "Tue, Sep 13, 2011", "13th Sep 2011"]) {
      expect(parseDate(s), s).toBe("2011-09-13");
    }
    expect(parseDate("02/30/2024")).toBeUndefined();
    expect(parseDate("2024-02-29")).toBe("2024-02-29");
    expect(parseDate("2023-02-29")).toBeUndefined();
    expect(parseDate("next Tuesday")).toBeUndefined();
  });

  it("reads 24-hour and 12-hour times", () => {
    expect(parseTime("13:51")).toBe("13:51");
    expect(parseTime("1:51 AM")).toBe("01:51");
    expect(parseTime("1:51 PM")).toBe("13:51");
    expect(parseTime("12:05am")).toBe("00:05");
    expect(parseTime("12 pm")).toBe("12:00");
    expect(parseTime("9:05:30")).toBe("09:05:30");
    expect(parseTime("25:00")).toBeUndefined();
    expect(parseTime("13:51 PM")).toBeUndefined();
    expect(parseTime("7")).toBeUndefined();
  });

  it("reads dates with times, months, weeks", () => {
    expect(parseDateTime("2011-09-13T13:51")).toBe("2011-09-13T13:51");
    expect(parseDateTime("09/13/2011 1:51 PM")).toBe("2011-09-13T13:51");
    expect(parseDateTime("Sep 13, 2011 at 9:05 am")).toBe("2011-09-13T09:05");
    expect(parseMonth("2011-09")).toBe("2011-09");
    expect(parseMonth("9/2011")).toBe("2011-09");
    expect(parseMonth("September 2011")).toBe("2011-09");
    expect(parseWeek("2011-W37")).toBe("2011-W37");
    expect(parseWeek("week 7, 2025")).toBe("2025-W07");
    // 1 January 2021 is a Friday: ISO puts it in the last week of 2020.
    expect(parseWeek("2021-01-01")).toBe("2020-W53");
  });

  it("reads colours and numbers", () => {
    expect(parseColor("#F80")).toBe("#ff8800");
    expect(parseColor("rgb(255, 136, 0)")).toBe("#ff8800");
    expect(parseColor("orange")).toBeUndefined();
    expect(parseNumber("1,500")).toEqual({ value: 1500 });
    expect(parseNumber("25%")).toEqual({ percent: 25 });
    expect(parseNumber("abc")).toBeUndefined();
    expect(canonicalValue("range", "40")).toBe("40");
  });
});
