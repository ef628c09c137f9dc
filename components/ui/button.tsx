import { cn } from "@/lib/ui/cn";

const VARIANTS = {
  primary: "bg-indigo-600 text-white hover:bg-indigo-700 dark:bg-indigo-400 dark:hover:bg-indigo-300 dark:text-zinc-950",
  secondary: "border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800",
  ghost: "text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800",
} as const;

export function buttonClass(variant: keyof typeof VARIANTS = "secondary", size: "sm" | "md" = "md") {
  return cn(
    "inline-flex items-center justify-center gap-1.5 rounded-lg font-medium transition-colors disabled:cursor-not-allowed disabled:opacity-50",
    size === "sm" ? "h-8 px-2.5 text-sm" : "h-10 px-4 text-sm",
    VARIANTS[variant],
  );
}

export function Button({
  variant,
  size,
  className,
  type = "button",
  ...props
}: React.ComponentProps<"button"> & { variant?: keyof typeof VARIANTS; size?: "sm" | "md" }) {
  return <button type={type} className={cn(buttonClass(variant, size), className)} {...props} />;
}
