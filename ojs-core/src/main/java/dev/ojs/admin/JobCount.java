package dev.ojs.admin;

/**
 * How many jobs match a filter.
 *
 * @param value the number
 * @param estimate {@code true} when counting exactly was too costly and this is the
 * planner's estimate
 */
public record JobCount(long value, boolean estimate) {

}
