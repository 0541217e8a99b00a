/**
 * Planning an ORC read, as pure arithmetic over the file's tail where it can be: ranges of whole
 * row-index strides ({@link dev.prefetch.orc.internal.plan.RangePlanner}, located by {@link
 * dev.prefetch.orc.internal.plan.StrideLocator}) and stripes dropped by a predicate on their
 * statistics ({@link dev.prefetch.orc.internal.plan.SargPruner}). Row groups inside kept stripes
 * are selected later, from each stripe's row index, by {@code internal.stripe.RowGroupFilter}.
 */
package dev.prefetch.orc.internal.plan;
