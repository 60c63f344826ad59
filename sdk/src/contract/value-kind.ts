import type { DescEnum, DescField, DescMessage, ScalarType } from "@bufbuild/protobuf";

/** What one value of a field is: a scalar, an enum or a message (for lists: an item; maps: a value). */
export type ValueKind = { readonly scalar: ScalarType } | { readonly enum: DescEnum } | { readonly message: DescMessage };

/** The kind of a field's values, whether the field is singular, repeated or a map. */
export function valueKind(field: DescField): ValueKind {
  const kind = field.fieldKind === "list" ? field.listKind : field.fieldKind === "map" ? field.mapKind : field.fieldKind;
  const f = field as { scalar?: ScalarType; enum?: DescEnum; message?: DescMessage };
  if (kind === "enum" && f.enum) return { enum: f.enum };
  if (kind === "message" && f.message) return { message: f.message };
  return { scalar: f.scalar as ScalarType };
}
