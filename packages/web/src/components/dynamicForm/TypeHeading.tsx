import type { ReactNode } from "react";
import styles from "./dynamicForm.module.css";

interface TypeHeadingProps {
  logo: ReactNode;
  /** The type's name, and whatever the form shows with it. */
  children: ReactNode;
  /** The type's setup instructions, where it has any. */
  helpLink: string | undefined;
}

/** The heading over a typed form (a data source or destination): logo, name and, at the right end,
 *  the link to the type's setup instructions. */
export function TypeHeading({ logo, children, helpLink }: TypeHeadingProps) {
  return (
    <div className={styles.typeHeader}>
      {logo}
      {children}
      {helpLink && (
        <a href={helpLink} target="_blank" rel="noopener noreferrer" className={styles.help}>
          Setup Instructions
        </a>
      )}
    </div>
  );
}
